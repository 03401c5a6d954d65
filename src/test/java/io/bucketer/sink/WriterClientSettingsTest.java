package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoClientSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WriterClientSettingsTest {

  // Moved from MongoBucketWriterTest, with the settings.
  @Test
  void shouldSetTheClientTimeoutsTheConnectionStringLeavesOpenFromTheWriteTimeout() {
    final MongoClientSettings defaults =
        WriterClientSettings.of("mongodb://db.example:27017", Duration.ofSeconds(5));
    final MongoClientSettings explicit =
        WriterClientSettings.of(
            "mongodb://db.example:27017/?socketTimeoutMS=700&serverSelectionTimeoutMS=800",
            Duration.ofSeconds(5));
    final MongoClientSettings longWrites =
        WriterClientSettings.of("mongodb://db.example:27017", Duration.ofMinutes(2));

    assertThat(defaults.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isEqualTo(5000);
    assertThat(defaults.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(5000);
    assertThat(explicit.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isEqualTo(700);
    assertThat(explicit.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(800);
    // Server selection never waits longer than the driver's own default, 30 s.
    assertThat(longWrites.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(30_000);
  }

  @Test
  void shouldLeaveEveryTimeoutToTheConnectionStringWhenItSetsTimeoutMs() {
    final MongoClientSettings settings =
        WriterClientSettings.of(
            "mongodb://db.example:27017/?timeoutMS=1500", Duration.ofSeconds(5));

    assertThat(settings.getTimeout(TimeUnit.MILLISECONDS)).isEqualTo(1500);
    assertThat(settings.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isZero();
    assertThat(settings.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(30_000);
  }

  @Test
  void shouldKeepThePoolAndCredentialsOfTheConnectionString() {
    final MongoClientSettings settings =
        WriterClientSettings.of(
            "mongodb://user:secret@db.example:27017/?authSource=admin&maxPoolSize=7",
            Duration.ofSeconds(5));

    assertThat(settings.getConnectionPoolSettings().getMaxSize()).isEqualTo(7);
    assertThat(settings.getCredential().getUserName()).isEqualTo("user");
    assertThat(settings.getCredential().getSource()).isEqualTo("admin");
  }
}
