package io.bucketer.sink;

import java.util.List;
import java.util.Optional;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * The bucket collections' indexes as {@code bucketer check} finds them.
 *
 * @param missing the collections that lack the series/time index (created at start)
 * @param mayCreate whether the login may create indexes in the buckets' database, from MongoDB's
 *     {@code connectionStatus}; empty when the server does not say (no login, or a server that does
 *     not describe privileges)
 */
public record IndexCheck(List<String> missing, Optional<Boolean> mayCreate) {

  public IndexCheck {
    missing = List.copyOf(missing);
  }

  /** From {@code connectionStatus} with {@code showPrivileges}: may the login create indexes? */
  static Optional<Boolean> mayCreateIndexes(final BsonDocument status, final String database) {
    final BsonDocument auth = status.getDocument("authInfo", new BsonDocument());
    final BsonArray users = auth.getArray("authenticatedUsers", new BsonArray());
    if (users.isEmpty()) {
      return Optional.empty();
    }
    for (final BsonValue privilege :
        auth.getArray("authenticatedUserPrivileges", new BsonArray())) {
      final BsonDocument granted = privilege.asDocument();
      final BsonDocument resource = granted.getDocument("resource", new BsonDocument());
      final boolean onDatabase =
          resource.getBoolean("anyResource", BsonBoolean.FALSE).getValue()
              || (resource.isString("db")
                  && (resource.getString("db").getValue().isEmpty()
                      || resource.getString("db").getValue().equals(database)));
      final boolean creates =
          granted.getArray("actions", new BsonArray()).stream()
              .anyMatch(
                  action ->
                      action.isString() && "createIndex".equals(action.asString().getValue()));
      if (onDatabase && creates) {
        return Optional.of(true);
      }
    }
    return Optional.of(false);
  }
}
