package io.odradek.compat;

import org.apache.kafka.tools.ConfigCommand;

/** Kafka's kafka-configs tool (ConfigCommand) against a test broker, in this JVM. */
final class KafkaConfigs {
    private KafkaConfigs() {
    }

    /** Runs kafka-configs with {@code --bootstrap-server} naming {@code broker}, then {@code args}. */
    static KafkaTool.Output run(OdradekBroker broker, String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-server";
        all[1] = broker.bootstrap();
        System.arraycopy(args, 0, all, 2, args.length);
        return KafkaTool.run(ConfigCommand::main, all);
    }
}
