/**
 * input.format=protobuf: Confluent-framed Protobuf with its message indexes ({@link
 * io.bucketer.ingest.protobuf.ProtobufDecoder}), or bare binary of a {@code protoc} descriptor
 * set's message ({@link io.bucketer.ingest.protobuf.DescriptorSetDecoder}); the registry's {@code
 * .proto} text compiled into protobuf-java descriptors ({@link
 * io.bucketer.ingest.protobuf.ProtoSchemaCompiler}), and the reading mapping applied to dynamic
 * messages (MessagePlan). Plain Java, protobuf-java and wire-schema: no Kafka, no MongoDB.
 */
package io.bucketer.ingest.protobuf;
