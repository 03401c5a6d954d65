package io.bucketer.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code bench memory} measures the processor with {@link ProcessorProcess#PRODUCTION_JVM}: the
 * deploy files must start it with the same options, or the figures measure another JVM.
 */
class DeployJvmOptionsTest {

  private static final Pattern JDK_JAVA_OPTIONS =
      Pattern.compile("JDK_JAVA_OPTIONS\\s*(?:=|\\n\\s*value:)\\s*\"?([^\"\\n]+)\"?");

  @ParameterizedTest
  @ValueSource(strings = {"deploy/docker/Dockerfile", "deploy/kubernetes/statefulset.yaml"})
  void shouldStartTheProcessorInTheDeployFilesWithTheJvmOptionsTheBenchmarkMeasures(
      final String file) throws IOException {
    final Matcher options = JDK_JAVA_OPTIONS.matcher(Files.readString(Path.of(file)));

    assertThat(options.find()).as("JDK_JAVA_OPTIONS set in %s", file).isTrue();
    final List<String> set = List.of(options.group(1).trim().split("\\s+"));
    assertThat(set).containsAll(ProcessorProcess.PRODUCTION_JVM);
    assertThat(set)
        .filteredOn(option -> option.matches("-XX:\\+Use\\w+GC"))
        .as("the one collector the benchmark measures")
        .containsExactly("-XX:+UseParallelGC");
  }
}
