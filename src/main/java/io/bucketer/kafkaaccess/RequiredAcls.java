package io.bucketer.kafkaaccess;

import io.bucketer.config.BucketerConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACLs bucketer's principal needs on a cluster with an authorizer, and no more: the one list
 * the README's "Security" section shows as {@code kafka-acls} commands (a test keeps them equal)
 * and the secured integration test grants.
 *
 * <p>Each entry was found needed by removing it in that test: without it, the processor stops. No
 * entry repeats an operation another implies (READ and WRITE imply DESCRIBE on the same resource).
 * No CREATE on the buckets and dead-letter topics: bucketer creates them only when they are
 * missing, so a cluster whose administrators create them grants no CREATE. No cluster permission: a
 * producer with WRITE on a topic may be idempotent (KIP-679).
 */
public final class RequiredAcls {

  /** The page and section that list them. */
  public static final String README_SECTION = "docs/security.md 'Kafka'";

  /**
   * The names the ACLs are given on.
   *
   * @param sinkGroup the sink's consumer group ({@code sink.group.id})
   */
  public record Names(
      String applicationId,
      String inputTopic,
      String bucketsTopic,
      String deadLetterTopic,
      String sinkGroup) {

    /** With the sink's group named after the application, as by default. */
    public Names(
        final String applicationId,
        final String inputTopic,
        final String bucketsTopic,
        final String deadLetterTopic) {
      this(applicationId, inputTopic, bucketsTopic, deadLetterTopic, applicationId + "-sink");
    }

    public static Names of(final BucketerConfig config) {
      return new Names(
          config.applicationId(),
          config.inputTopic(),
          config.bucketsTopic(),
          config.deadLetterTopic(),
          config.kafka().sinkGroupId());
    }

    /**
     * Kafka Streams names its internal topics (repartition, changelogs) and its transactional ids
     * {@code <application.id>-...}.
     */
    public String internalPrefix() {
      return applicationId + "-";
    }
  }

  /** One resource and the operations bucketer needs on it, and why. */
  public record Grant(ResourcePattern resource, List<AclOperation> operations, String reason) {}

  private RequiredAcls() {}

  /** What bucketer needs, resource by resource, in the README's order. */
  public static List<Grant> grants(final Names names) {
    final List<Grant> grants = new ArrayList<>();
    grants.add(
        new Grant(
            literal(ResourceType.TOPIC, names.inputTopic()),
            List.of(AclOperation.READ),
            "the input topic: read"));
    grants.add(
        new Grant(
            literal(ResourceType.GROUP, names.applicationId()),
            List.of(AclOperation.READ),
            "Kafka Streams' consumer group, application.id"));
    grants.add(
        new Grant(
            prefixed(ResourceType.TOPIC, names.internalPrefix()),
            List.of(
                AclOperation.CREATE, AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE),
            "Kafka Streams' internal topics (repartition, changelogs): create, use, purge"));
    grants.add(
        new Grant(
            prefixed(ResourceType.TRANSACTIONAL_ID, names.internalPrefix()),
            List.of(AclOperation.WRITE),
            "exactly-once: Kafka Streams' transactional ids"));
    grants.add(
        new Grant(
            literal(ResourceType.TOPIC, names.bucketsTopic()),
            List.of(AclOperation.READ, AclOperation.WRITE),
            "the buckets topic: the topology writes it, the sink reads it"));
    grants.add(
        new Grant(
            literal(ResourceType.GROUP, names.sinkGroup()),
            List.of(AclOperation.READ),
            "the sink's consumer group"));
    grants.add(
        new Grant(
            literal(ResourceType.TOPIC, names.deadLetterTopic()),
            List.of(AclOperation.WRITE),
            "the dead-letter topic: the topology and the sink write it"));
    return grants;
  }

  /** The grants as Kafka ACL bindings for {@code principal} (such as {@code User:bucketer}). */
  public static List<AclBinding> bindings(final String principal, final Names names) {
    final List<AclBinding> bindings = new ArrayList<>();
    for (final Grant grant : grants(names)) {
      for (final AclOperation operation : grant.operations()) {
        bindings.add(
            new AclBinding(
                grant.resource(),
                new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW)));
      }
    }
    return bindings;
  }

  /**
   * The grants as {@code kafka-acls.sh} commands for {@code principal}, one per resource, with
   * {@code admin} as the options that reach the cluster as an administrator.
   */
  public static String kafkaAclsCommands(
      final String admin, final String principal, final Names names) {
    return grants(names).stream()
        .map(grant -> command(admin, principal, grant))
        .collect(Collectors.joining("\n"));
  }

  private static String command(final String admin, final String principal, final Grant grant) {
    final StringBuilder command =
        new StringBuilder("# ")
            .append(grant.reason())
            .append("\nkafka-acls.sh ")
            .append(admin)
            .append(" --add --allow-principal ")
            .append(principal);
    grant.operations().forEach(op -> command.append(" --operation ").append(op.name()));
    if (grant.resource().patternType() == PatternType.PREFIXED) {
      command.append(" --resource-pattern-type prefixed");
    }
    command
        .append(" ")
        .append(OPTION.get(grant.resource().resourceType()))
        .append(" ")
        .append(grant.resource().name());
    return command.toString();
  }

  private static final Map<ResourceType, String> OPTION = new LinkedHashMap<>();

  static {
    OPTION.put(ResourceType.TOPIC, "--topic");
    OPTION.put(ResourceType.GROUP, "--group");
    OPTION.put(ResourceType.TRANSACTIONAL_ID, "--transactional-id");
    OPTION.put(ResourceType.CLUSTER, "--cluster");
  }

  private static ResourcePattern literal(final ResourceType type, final String name) {
    return new ResourcePattern(type, name, PatternType.LITERAL);
  }

  private static ResourcePattern prefixed(final ResourceType type, final String prefix) {
    return new ResourcePattern(type, prefix, PatternType.PREFIXED);
  }
}
