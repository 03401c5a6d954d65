package io.bucketer.ingest.protobuf;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code FileDescriptorSet} file, as {@code protoc --include_imports --descriptor_set_out=FILE}
 * writes it: the message types of input.format=protobuf without a registry. Imports the set does
 * not hold are taken from protobuf-java's well-known types ({@code google/protobuf/*.proto}), so a
 * set written without {@code --include_imports} works when it imports only those.
 */
public final class DescriptorSetFile {

  private DescriptorSetFile() {}

  /**
   * The message type {@code fullName} ({@code com.example.GatewayReading}) of the set in {@code
   * file}.
   *
   * @throws IllegalArgumentException when the file cannot be read, is not a descriptor set, or has
   *     no such message; the message says which and lists the messages it has
   */
  public static Descriptor message(final Path file, final String fullName) {
    final FileDescriptorSet set;
    try {
      set = FileDescriptorSet.parseFrom(Files.readAllBytes(file));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          file + " is not a FileDescriptorSet (protoc --include_imports --descriptor_set_out)", e);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
    }
    final Map<String, FileDescriptorProto> protos = new HashMap<>();
    set.getFileList().forEach(proto -> protos.put(proto.getName(), proto));
    final Map<String, FileDescriptor> built = new HashMap<>();
    final List<Descriptor> messages = new ArrayList<>();
    for (final FileDescriptorProto proto : set.getFileList()) {
      nested(build(file, proto.getName(), protos, built).getMessageTypes(), messages);
    }
    for (final Descriptor message : messages) {
      if (message.getFullName().equals(fullName)) {
        return message;
      }
    }
    throw new IllegalArgumentException(
        file
            + " has no message "
            + fullName
            + "; it has "
            + String.join(
                ", ",
                messages.stream()
                    .map(Descriptor::getFullName)
                    .filter(name -> !name.startsWith("google.protobuf."))
                    .toList()));
  }

  private static void nested(final List<Descriptor> messages, final List<Descriptor> all) {
    for (final Descriptor message : messages) {
      all.add(message);
      nested(message.getNestedTypes(), all);
    }
  }

  private static FileDescriptor build(
      final Path file,
      final String name,
      final Map<String, FileDescriptorProto> protos,
      final Map<String, FileDescriptor> built) {
    final FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    final FileDescriptorProto proto = protos.get(name);
    if (proto == null) {
      final FileDescriptor wellKnown = ProtoSchemaCompiler.wellKnown(name);
      if (wellKnown == null) {
        throw new IllegalArgumentException(
            file + " lacks the imported file " + name + ": write it with protoc --include_imports");
      }
      return wellKnown;
    }
    final List<FileDescriptor> dependencies = new ArrayList<>();
    for (final String dependency : proto.getDependencyList()) {
      dependencies.add(build(file, dependency, protos, built));
    }
    try {
      final FileDescriptor descriptor =
          FileDescriptor.buildFrom(proto, dependencies.toArray(FileDescriptor[]::new));
      built.put(name, descriptor);
      return descriptor;
    } catch (DescriptorValidationException e) {
      throw new IllegalArgumentException(
          file + ": " + name + " is not a valid file: " + e.getMessage(), e);
    }
  }
}
