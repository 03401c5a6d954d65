package io.bucketer.testing;

import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The settings that make a run of the processor isolated, in the test's JVM or in children: its own
 * application id, topics and MongoDB database, so tests never see each other's data.
 */
public final class RunSettings {

  private RunSettings() {}

  /** A new run's id: its application id, the prefix of its topics and its database's name. */
  public static String newId() {
    return "t" + UUID.randomUUID().toString().substring(0, 8);
  }

  /**
   * Bucketer settings for run {@code id} against {@code endpoints}, with three series partitions
   * and one replica of each topic (a single broker). The map is the caller's to add to.
   */
  public static Map<String, String> of(final String id, final Endpoints endpoints) {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, endpoints.bootstrapServers());
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, endpoints.schemaRegistryUrl());
    settings.put(MongoSettings.URI, endpoints.mongoUri());
    settings.put(MongoSettings.DATABASE, id);
    settings.put(KafkaSettings.APPLICATION_ID, id);
    settings.put(InputSettings.TOPIC, id + ".readings");
    settings.put(KafkaSettings.BUCKETS_TOPIC, id + ".buckets");
    settings.put(KafkaSettings.DEAD_LETTER_TOPIC, id + ".dlq");
    settings.put(KafkaSettings.SERIES_PARTITIONS, "3");
    settings.put(KafkaSettings.TOPIC_REPLICATION_FACTOR, "1");
    return settings;
  }
}
