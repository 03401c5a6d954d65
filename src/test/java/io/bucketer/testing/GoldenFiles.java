package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * Golden files: the bytes of each format bucketer persists or sends to its other instances, exactly
 * as the build that introduced the format wrote them, committed under {@code
 * src/test/resources/io/bucketer/golden/}. The {@code Golden*FormatsTest} tests read them back and
 * check that today's encoders still write the current ones byte for byte, so a change of a format
 * fails them until it ships a new format version, a reader of the old one and a golden file of the
 * new one (docs/upgrades.md).
 *
 * <p>Each golden test has a writer, {@code shouldWriteTheGoldenFilesThatAreMissing}, enabled only
 * with the system property {@value #WRITE_PROPERTY}{@code =true}:
 *
 * <pre>
 * mvn -o -q test -Dtest='Golden*FormatsTest' -Dbucketer.golden.write=true
 * </pre>
 *
 * <p>It writes the files that are missing into the source tree and never touches one that exists: a
 * golden file, once committed, is never written again. The normal build does not write any. The
 * readers of that same run see the test class path Maven copied before, so run the tests again
 * without the property to check the new files.
 */
public final class GoldenFiles {

  /** The system property that enables the writers. */
  public static final String WRITE_PROPERTY = "bucketer.golden.write";

  private static final String RESOURCES = "/io/bucketer/golden/";

  // Maven runs tests in the project's directory.
  private static final Path SOURCE_DIRECTORY =
      Path.of("src", "test", "resources", "io", "bucketer", "golden");

  private GoldenFiles() {}

  /** The golden file {@code name}, from the test class path. */
  public static byte[] read(final String name) {
    try (InputStream in = GoldenFiles.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new AssertionError(
            "no golden file "
                + name
                + " in src/test/resources"
                + RESOURCES
                + "; a new format writes its own once, with -D"
                + WRITE_PROPERTY
                + "=true (see GoldenFiles)");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes each of {@code files} (name to bytes) that is not in the source tree yet, leaving every
   * existing one as it is; then checks that each is there.
   */
  public static void writeMissing(final Map<String, byte[]> files) {
    try {
      Files.createDirectories(SOURCE_DIRECTORY);
      for (final Map.Entry<String, byte[]> file : files.entrySet()) {
        final Path path = SOURCE_DIRECTORY.resolve(file.getKey());
        if (!Files.exists(path)) {
          Files.write(path, file.getValue(), StandardOpenOption.CREATE_NEW);
        }
        assertThat(path).as("golden file %s", file.getKey()).exists();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
