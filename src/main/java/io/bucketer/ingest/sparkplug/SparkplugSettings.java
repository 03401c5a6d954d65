package io.bucketer.ingest.sparkplug;

import java.util.Objects;

/**
 * How Sparkplug B input is read.
 *
 * @param topicSource where each record keeps its MQTT topic (input.sparkplug.topic.from)
 * @param booleansAsNumbers Boolean metrics as readings of 1 and 0 (input.sparkplug.booleans), else
 *     skipped and counted
 */
public record SparkplugSettings(SparkplugTopicSource topicSource, boolean booleansAsNumbers) {
  public SparkplugSettings {
    Objects.requireNonNull(topicSource, "topicSource");
  }
}
