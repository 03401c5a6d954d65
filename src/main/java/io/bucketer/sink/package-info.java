/**
 * The MongoDB sink: consumes the compacted buckets topic and writes each closed bucket as one
 * document, an upsert by its natural {@code _id} guarded by its revision, committing offsets only
 * after MongoDB acknowledged; rejected buckets go to the dead-letter topic. The package that writes
 * to MongoDB, and that connects to it: TLS from files and the login ({@link
 * io.bucketer.sink.MongoConnection}), and why a connection fails, in one line ({@link
 * io.bucketer.sink.MongoFailures}).
 */
package io.bucketer.sink;
