package io.odradek.broker.metrics.http;

import io.odradek.broker.metrics.MetricName;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kafka metric's Prometheus name and labels, as the Prometheus JMX exporter's usual Kafka rules give them
 * (jmx_exporter's {@code example_configs/kafka-2_0_0.yml}, {@code lowercaseOutputName: true}), so dashboards and
 * alerts written against a JMX-exported Kafka work unchanged. For an MBean {@code <domain>:type=T,name=N,k1=v1,...}:
 * <ul>
 * <li>Meter ({@code Count}), name ending in {@code PerSec} (rule {@code name=(.+)PerSec\w*}): a counter
 *     {@code <domain>_<T>_<N without PerSec...>_total}, e.g. {@code kafka.server:type=BrokerTopicMetrics,
 *     name=MessagesInPerSec,topic=t} -> {@code kafka_server_brokertopicmetrics_messagesin_total{topic="t"}}.
 *     The rates (MeanRate, OneMinuteRate, ...) match no rule and are not exported (Prometheus computes rates).</li>
 * <li>Gauge ({@code Value}): a gauge {@code <domain>_<T>_<N>}, e.g. {@code kafka_server_replicamanager_underreplicatedpartitions}.
 *     Numbers as they are, booleans as 1/0, anything else is skipped (as the exporter skips it).</li>
 * <li>Histogram: {@code <domain>_<T>_<N>{quantile="0.50"|"0.75"|"0.95"|"0.98"|"0.99"|"0.999"}} from the
 *     {@code (\d+)thPercentile} attributes (rule label {@code quantile: "0.$N"}, hence "0.50", not "0.5"), and
 *     {@code <domain>_<T>_<N>_count} from {@code Count}. The rules have no {@code _sum} (their comment says so),
 *     and none is made up here: Yammer's Mean is of a decaying sample, so mean x count is no running sum.
 *     The rules type {@code _count} COUNTER; the Prometheus client 1.x would print a counter named
 *     {@code x_count} as {@code x_count_total}, so it is exported untyped to keep the rules' sample name.</li>
 * <li>A Meter whose name does not end in {@code PerSec} falls to the generic {@code Count} rule: {@code _count}, as above.</li>
 * </ul>
 * Tags become labels under their own key ({@code "$4": "$5"}); a tag with an empty value is dropped (as the
 * exporter drops empty labels). The rules cover up to two tags generically and three for
 * {@code clientId,topic,partition}; any count is handled alike here (the rules' catch-all patterns would
 * otherwise mangle a third tag into a label name). Their one special case is kept: tags {@code brokerHost} and
 * {@code brokerPort} become one label {@code broker="host:port"}. A domain with dots ({@code kafka.coordinator.group})
 * becomes underscores ({@code kafka_coordinator_group_...}), as the rule for {@code kafka.coordinator.(\w+)} gives.
 * Names and label names go through the exporter's safeName (every character outside {@code [a-zA-Z0-9:_]} becomes
 * {@code _}, runs of {@code _} become one); names are lower-cased, label names are not ({@code clientId}).
 */
public final class PrometheusNames {
    /** The Yammer histogram percentile attributes the rules export, and the quantile label each gets. */
    static final double[] QUANTILES = {0.50, 0.75, 0.95, 0.98, 0.99, 0.999};
    static final String[] QUANTILE_LABELS = {"0.50", "0.75", "0.95", "0.98", "0.99", "0.999"};

    private static final Pattern PER_SEC = Pattern.compile("(.+)PerSec\\w*");
    private static final Pattern UNSAFE = Pattern.compile("[^a-zA-Z0-9:_]");
    private static final Pattern UNDERSCORES = Pattern.compile("__+");

    private PrometheusNames() {
    }

    /** {@code <domain>_<type>_<name>}, lower-cased: a gauge's and a histogram's quantile series. */
    public static String base(MetricName name) {
        return lower(safeName(name.group() + "_" + name.type() + "_" + name.name()));
    }

    /**
     * A Meter's counter family name, without the {@code _total} the exposition adds: the PerSec rule's
     * {@code kafka_$1_$2_$3} for a name ending in PerSec; null otherwise (the generic {@code _count} applies).
     */
    public static String perSecCounter(MetricName name) {
        Matcher m = PER_SEC.matcher(name.name());
        if (!m.matches()) {
            return null;
        }
        return lower(safeName(name.group() + "_" + name.type() + "_" + m.group(1)));
    }

    /** The generic {@code Count} rule's name: {@code <domain>_<type>_<name>_count}. */
    public static String count(MetricName name) {
        return base(name) + "_count";
    }

    /** The metric's tags as labels (sorted by name, as the exposition sorts them anyway). */
    public static Map<String, String> labels(MetricName name) {
        Map<String, String> labels = new TreeMap<>();
        Map<String, String> tags = name.tags();
        String host = tags.get("brokerHost");
        String port = tags.get("brokerPort");
        boolean broker = host != null && port != null && !host.isEmpty() && !port.isEmpty();
        for (Map.Entry<String, String> tag : tags.entrySet()) {
            if (broker && (tag.getKey().equals("brokerHost") || tag.getKey().equals("brokerPort"))) {
                continue;
            }
            String label = safeName(tag.getKey());
            if (!label.isEmpty() && !tag.getValue().isEmpty()) {
                labels.put(label, tag.getValue());
            }
        }
        if (broker) {
            labels.put("broker", host + ":" + port);
        }
        return labels;
    }

    /** The exporter's safeName: characters outside {@code [a-zA-Z0-9:_]} become {@code _}, then runs of {@code _} one. */
    static String safeName(String s) {
        return UNDERSCORES.matcher(UNSAFE.matcher(s).replaceAll("_")).replaceAll("_");
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
