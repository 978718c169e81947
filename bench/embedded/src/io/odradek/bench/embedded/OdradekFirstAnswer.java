package io.odradek.bench.embedded;

import io.odradek.embedded.Odradek;

/** Odradek's embedded broker, started as a test would (Odradek.start(): defaults), then the probe. */
public final class OdradekFirstAnswer {
    private OdradekFirstAnswer() {}

    public static void main(String[] args) throws Exception {
        long mainStart = System.currentTimeMillis();
        long jvmStart = FirstAnswer.jvmStart();
        Odradek odradek = Odradek.start();
        long started = System.currentTimeMillis();
        FirstAnswer.describeClusterAndReport("odradek", jvmStart, mainStart, started, odradek.bootstrapServers());
        odradek.close();
        System.exit(0);
    }
}
