/**
 * What bucketer's principal may do on a secured Kafka cluster: the ACLs it needs ({@link
 * io.bucketer.kafkaaccess.RequiredAcls}, the list the README shows), the one-line reason when the
 * authorizer refused one ({@link io.bucketer.kafkaaccess.NotAuthorised}), and the one line of any
 * failure a configuration can cause: unreachable, TLS trust, a refused certificate or login ({@link
 * io.bucketer.kafkaaccess.KafkaFailures}). Kafka's clients only: no Kafka Streams, no broker.
 */
package io.bucketer.kafkaaccess;
