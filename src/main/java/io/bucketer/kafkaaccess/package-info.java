/**
 * What bucketer's principal may do on a secured Kafka cluster: the ACLs it needs ({@link
 * io.bucketer.kafkaaccess.RequiredAcls}, the list the README shows) and the one-line reason when
 * the authorizer refused one ({@link io.bucketer.kafkaaccess.NotAuthorised}). Kafka's clients only:
 * no Kafka Streams, no broker.
 */
package io.bucketer.kafkaaccess;
