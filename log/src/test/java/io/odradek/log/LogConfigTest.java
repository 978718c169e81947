package io.odradek.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LogConfigTest {
    @Test
    void defaultsAreKafkas() {
        LogConfig c = LogConfig.defaults();
        assertThat(c.segmentBytes()).isEqualTo(1_073_741_824);
        assertThat(c.retentionMs()).isEqualTo(604_800_000L);
        assertThat(c.maxMessageBytes()).isEqualTo(1_048_588);
        assertThat(c.get(LogConfig.MESSAGE_TIMESTAMP_TYPE)).isEqualTo("CreateTime");
        assertThat(LogConfig.keys()).contains("segment.bytes", "retention.bytes", "flush.ms", "file.delete.delay.ms");
    }

    @Test
    void topicOverridesReplaceDefaultsAndReportAsStrings() {
        LogConfig c = LogConfig.defaults().with(Map.of("retention.ms", "-1", "message.timestamp.type", "LogAppendTime"));
        assertThat(c.retentionMs()).isEqualTo(-1L);
        assertThat(c.isLogAppendTime()).isTrue();
        assertThat(c.get("retention.ms")).isEqualTo("-1");
        assertThat(c.get("segment.bytes")).isEqualTo("1073741824");
    }

    @Test
    void badValuesAndUnknownKeysAreRejectedWithAClearMessage() {
        assertThatThrownBy(() -> LogConfig.defaults().with(Map.of("segment.bytes", "big")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("segment.bytes").hasMessageContaining("big");
        assertThatThrownBy(() -> LogConfig.defaults().with(Map.of("retention.ms", "-5")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least -1");
        assertThatThrownBy(() -> LogConfig.defaults().with(Map.of("message.timestamp.type", "Now")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CreateTime");
        assertThatThrownBy(() -> LogConfig.defaults().with(Map.of("no.such.key", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no.such.key");
    }

    @Test
    void brokerKeysSupplyDefaultsWithKafkasTimeUnitPrecedence() {
        LogConfig c = LogConfig.fromBrokerConfig(Map.of("log.retention.hours", "1", "log.segment.bytes", "2048",
                "message.max.bytes", "5000", "listeners", "PLAINTEXT://:9092"));
        assertThat(c.retentionMs()).isEqualTo(3_600_000L);
        assertThat(c.segmentBytes()).isEqualTo(2048);
        assertThat(c.maxMessageBytes()).isEqualTo(5000);
        assertThat(LogConfig.fromBrokerConfig(Map.of("log.retention.hours", "1", "log.retention.ms", "5"))
                .retentionMs()).isEqualTo(5L);
    }

    @Test
    void validationKeysHaveKafkasDefaultsAndBrokerSynonyms() {
        LogConfig d = LogConfig.defaults();
        assertThat(d.timestampBeforeMaxMs()).isEqualTo(Long.MAX_VALUE);
        assertThat(d.timestampAfterMaxMs()).isEqualTo(3_600_000L);
        assertThat(d.maxDecompressedMessageBytes()).isEqualTo(2_147_483_639);
        assertThat(d.fullRecordValidation()).isTrue();
        LogConfig c = LogConfig.fromBrokerConfig(Map.of("log.message.timestamp.before.max.ms", "1000",
                "log.message.timestamp.after.max.ms", "2000", "max.decompressed.message.bytes", "3000"));
        assertThat(c.timestampBeforeMaxMs()).isEqualTo(1000L);
        assertThat(c.timestampAfterMaxMs()).isEqualTo(2000L);
        assertThat(c.maxDecompressedMessageBytes()).isEqualTo(3000);
        assertThatThrownBy(() -> d.with(Map.of("message.timestamp.after.max.ms", "-1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 0");
    }

    @Test
    void headerOnlyValidationSurvivesTopicOverrides() {
        LogConfig trusted = LogConfig.defaults().withFullRecordValidation(false);
        assertThat(trusted.with(Map.of("retention.ms", "5")).fullRecordValidation()).isFalse();
        assertThat(trusted).isNotEqualTo(LogConfig.defaults());
    }
}
