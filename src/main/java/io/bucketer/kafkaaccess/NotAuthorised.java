package io.bucketer.kafkaaccess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Tells a refusal by the cluster's authorizer from any other failure, and says it in one line that
 * names the dependency, its address, what is missing and where the list of ACLs is: {@code kafka at
 * <bootstrap>: not authorised: READ on topic 'iot.readings' — see docs/security.md 'Kafka'}.
 *
 * <p>Retrying cannot grant an ACL, so the caller ends the processor with that line rather than
 * logging stack traces while it stays up doing nothing.
 *
 * <p>Kafka's exceptions name the resource (a topic, a group) but not the operation. The operation
 * is what {@link RequiredAcls} needs on that resource less what the authorizer says the principal
 * may do there ({@code includeAuthorizedOperations}), so the line names exactly the missing ACL.
 */
public final class NotAuthorised {

  /** Asks the cluster what the principal may do on each topic; see {@link TopicOperations}. */
  public interface TopicProbe extends Function<Set<String>, Map<String, TopicOperations>> {}

  /** What the authorizer says of one topic. */
  public sealed interface TopicOperations {

    /** The topic exists and the principal may do these on it (DESCRIBE at least). */
    record Allowed(Set<AclOperation> operations) implements TopicOperations {}

    /** The principal may describe the topic, and it does not exist. */
    record Missing() implements TopicOperations {}

    /** The principal may not even describe it, or the cluster did not answer: nothing known. */
    record Unknown() implements TopicOperations {}
  }

  /** A topic's name after the word "topic": Kafka's legal characters, a final dot left out. */
  private static final Pattern TOPIC_IN_MESSAGE =
      Pattern.compile("topic ([A-Za-z0-9._-]*[A-Za-z0-9_-])");

  private final String bootstrapServers;
  private final RequiredAcls.Names names;
  private final TopicProbe probe;

  public NotAuthorised(
      final String bootstrapServers, final RequiredAcls.Names names, final TopicProbe probe) {
    this.bootstrapServers = bootstrapServers;
    this.names = names;
    this.probe = probe;
  }

  /**
   * The classifier for a processor with {@code clientProperties} (bootstrap servers and security
   * settings), whose probe asks the cluster with an admin client of its own, waiting at most {@code
   * timeout}.
   */
  public static NotAuthorised of(
      final Map<String, Object> clientProperties,
      final RequiredAcls.Names names,
      final Duration timeout) {
    return new NotAuthorised(
        String.valueOf(clientProperties.get("bootstrap.servers")),
        names,
        new AdminTopicProbe(clientProperties, timeout));
  }

  /** The authorisation failure among {@code error} and its causes, if there is one. */
  public static Optional<AuthorizationException> find(final Throwable error) {
    Throwable cause = error;
    // a bounded walk: a cycle of causes must not hang a failing thread
    for (int depth = 0; cause != null && depth < 32; depth++) {
      if (cause instanceof AuthorizationException refusal) {
        return Optional.of(refusal);
      }
      cause = cause.getCause();
    }
    return Optional.empty();
  }

  /**
   * The one line for {@code error}, when it or one of its causes is an authorisation failure; empty
   * for any other failure.
   */
  public Optional<String> line(final Throwable error) {
    return find(error).map(refusal -> line(missing(refusal, error)));
  }

  /**
   * The one line if the cluster says the principal may not do {@code operation} on {@code topic};
   * empty if it may, or if the cluster does not say (the topic is missing, or not even described).
   * For a permission whose lack nothing reports: Kafka Streams purges its repartition topics
   * (DELETE) and ignores a refusal, so that they grow without bound.
   */
  public Optional<String> unlessAllowed(final String topic, final AclOperation operation) {
    final TopicOperations operations =
        probe.apply(Set.of(topic)).getOrDefault(topic, new TopicOperations.Unknown());
    if (operations instanceof TopicOperations.Allowed allowed
        && !allowed.operations().contains(operation)) {
      return Optional.of(
          line(
              onResource(
                  List.of(operation),
                  new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL))));
    }
    return Optional.empty();
  }

  /**
   * The one line for a refusal to create {@code topics}, which looked missing: a topic the
   * principal may not describe is not listed, so it may exist. Kafka's answer to CreateTopics names
   * no topic; the caller knows which it asked for.
   */
  public String lineForCreating(final Set<String> topics) {
    return line(
        missingOnTopics(topics) + " (and CREATE, unless an administrator creates the topic)");
  }

  /**
   * The one line for a refusal about {@code topics}, when the caller knows which it asked about:
   * the admin client's refusal to describe a topic names none.
   */
  public String lineForTopics(final Set<String> topics) {
    return line(missingOnTopics(topics));
  }

  /** {@code kafka at <bootstrap>: not authorised: <what> — see docs/security.md 'Kafka'}. */
  public String line(final String missing) {
    return "kafka at "
        + bootstrapServers
        + ": not authorised: "
        + missing
        + " — see "
        + RequiredAcls.README_SECTION;
  }

  private String missing(final AuthorizationException refusal, final Throwable error) {
    if (refusal instanceof TransactionalIdAuthorizationException) {
      // the exception names no id; Kafka Streams' ids all start with the prefix granted
      return onResource(
          RequiredAcls.grants(names).stream()
              .filter(g -> g.resource().resourceType() == ResourceType.TRANSACTIONAL_ID)
              .findFirst()
              .map(g -> g.operations())
              .orElse(List.of(AclOperation.WRITE)),
          new ResourcePattern(
              ResourceType.TRANSACTIONAL_ID, names.internalPrefix(), PatternType.PREFIXED));
    }
    if (refusal instanceof GroupAuthorizationException group && group.groupId() != null) {
      return onResource(
          needed(ResourceType.GROUP, group.groupId()),
          new ResourcePattern(ResourceType.GROUP, group.groupId(), PatternType.LITERAL));
    }
    if (refusal instanceof TopicAuthorizationException topics) {
      final Set<String> named =
          topics.unauthorizedTopics().isEmpty()
              ? topicsNamedIn(error)
              : topics.unauthorizedTopics();
      if (!named.isEmpty()) {
        return missingOnTopics(named);
      }
    }
    if (refusal instanceof ClusterAuthorizationException) {
      return "an operation on the cluster (" + refusal.getMessage() + ")";
    }
    return refusal.getMessage();
  }

  private String missingOnTopics(final Set<String> topics) {
    final Map<String, TopicOperations> known = probe.apply(topics);
    final List<String> parts = new ArrayList<>();
    for (final String topic : topics.stream().sorted().toList()) {
      final Set<AclOperation> needed = EnumSet.noneOf(AclOperation.class);
      needed.addAll(needed(ResourceType.TOPIC, topic));
      final TopicOperations operations = known.getOrDefault(topic, new TopicOperations.Unknown());
      final Set<AclOperation> missing = EnumSet.noneOf(AclOperation.class);
      if (operations instanceof TopicOperations.Allowed allowed) {
        missing.addAll(needed);
        missing.removeAll(allowed.operations());
      } else if (operations instanceof TopicOperations.Missing) {
        // only creating it is asked of a topic that does not exist
        missing.add(AclOperation.CREATE);
      } else {
        missing.addAll(needed);
      }
      if (missing.isEmpty()) {
        // granted meanwhile, or an operation the README does not list: say what Kafka said
        missing.addAll(needed);
      }
      parts.add(
          onResource(
              List.copyOf(missing),
              new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL)));
    }
    return String.join(", ", parts);
  }

  /**
   * Bucketer's topics that the messages of {@code error} and its causes name. A refused
   * CreateTopics names no topic in Kafka's exception; Kafka Streams names the internal topic it
   * could not create in the exception around it ("Could not create topic ..."). Only names of
   * bucketer's own topics count, so no other word of a message is taken for a topic.
   */
  private Set<String> topicsNamedIn(final Throwable error) {
    final Set<String> named = new TreeSet<>();
    Throwable cause = error;
    for (int depth = 0; cause != null && depth < 32; depth++) {
      final Matcher topic = TOPIC_IN_MESSAGE.matcher(String.valueOf(cause.getMessage()));
      while (topic.find()) {
        final String name = topic.group(1);
        if (name.startsWith(names.internalPrefix())
            || name.equals(names.inputTopic())
            || name.equals(names.bucketsTopic())
            || name.equals(names.deadLetterTopic())) {
          named.add(name);
        }
      }
      cause = cause.getCause();
    }
    return named;
  }

  /** The operations {@link RequiredAcls} grants on the resource of this type and name. */
  private List<AclOperation> needed(final ResourceType type, final String name) {
    final Set<AclOperation> operations = EnumSet.noneOf(AclOperation.class);
    for (final RequiredAcls.Grant grant : RequiredAcls.grants(names)) {
      final ResourcePattern resource = grant.resource();
      final boolean matches =
          resource.resourceType() == type
              && (resource.patternType() == PatternType.PREFIXED
                  ? name.startsWith(resource.name())
                  : name.equals(resource.name()));
      if (matches) {
        operations.addAll(grant.operations());
      }
    }
    if (operations.isEmpty()) {
      // not a resource of bucketer's (a topic named by a kafka.* setting): DESCRIBE at least
      operations.add(AclOperation.DESCRIBE);
    }
    return List.copyOf(operations);
  }

  private static String onResource(
      final List<AclOperation> operations, final ResourcePattern resource) {
    final String type =
        switch (resource.resourceType()) {
          case TRANSACTIONAL_ID -> "transactional-id";
          default -> resource.resourceType().name().toLowerCase();
        };
    final String pattern = resource.patternType() == PatternType.PREFIXED ? " prefixed" : "";
    return operations.stream().map(AclOperation::name).collect(Collectors.joining(", "))
        + " on "
        + type
        + pattern
        + " '"
        + resource.name()
        + "'";
  }

  /** Nothing known of any of {@code topics}. */
  static Map<String, TopicOperations> unknown(final Set<String> topics) {
    final Map<String, TopicOperations> all = new LinkedHashMap<>();
    topics.forEach(topic -> all.put(topic, new TopicOperations.Unknown()));
    return all;
  }
}
