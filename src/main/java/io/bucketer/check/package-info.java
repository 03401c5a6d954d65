/**
 * {@code bucketer check}: with the settings of {@code run}, and without processing anything, asks
 * each dependency what {@code run} will need of it (Kafka's topics and their configuration, the
 * registry's latest input schema against the {@code input.*} mapping, MongoDB's collections and
 * indexes) and reports each answer in one line. Kafka is asked through its admin client here, with
 * the ACL list of {@code kafkaaccess}; the registry and MongoDB through the clients of ingest and
 * sink, which know their answers.
 */
package io.bucketer.check;
