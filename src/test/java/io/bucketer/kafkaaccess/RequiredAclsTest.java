package io.bucketer.kafkaaccess;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.junit.jupiter.api.Test;

class RequiredAclsTest {

  private static final String MARKER = "<!-- kafka-acls: generated from RequiredAcls";
  private static final RequiredAcls.Names README_NAMES =
      new RequiredAcls.Names("$APP", "$INPUT", "$BUCKETS", "$DEAD_LETTERS");

  @Test
  void shouldShowInTheReadmeExactlyTheAclsItGrants() throws Exception {
    assertThat(readmeCommands())
        .as("docs/security.md's kafka-acls commands; they are RequiredAcls.kafkaAclsCommands")
        .isEqualTo(RequiredAcls.kafkaAclsCommands("$ADMIN", "\"$PRINCIPAL\"", README_NAMES));
  }

  @Test
  void shouldNeverGrantDescribeAloneNorCreateOnTopicsThatMayExist() {
    final List<AclBinding> acls =
        RequiredAcls.bindings("User:b", new RequiredAcls.Names("b", "in", "out", "dlq"));
    assertThat(acls).noneMatch(acl -> acl.entry().operation() == AclOperation.DESCRIBE);
    assertThat(acls)
        .filteredOn(acl -> acl.entry().operation() == AclOperation.CREATE)
        .singleElement()
        .satisfies(acl -> assertThat(acl.pattern().name()).isEqualTo("b-"));
  }

  /** The commands of docs/security.md's block, without its first lines, which set the names. */
  private static String readmeCommands() throws Exception {
    final String readme = Files.readString(Path.of("docs/security.md"));
    final int marker = readme.indexOf(MARKER);
    assertThat(marker).as("docs/security.md has the generated kafka-acls block").isPositive();
    final int start = readme.indexOf("```sh\n", marker) + "```sh\n".length();
    final int end = readme.indexOf("\n```", start);
    final List<String> lines = readme.substring(start, end).lines().toList();
    assertThat(lines.get(2)).startsWith("ADMIN=");
    return String.join("\n", lines.subList(3, lines.size()));
  }
}
