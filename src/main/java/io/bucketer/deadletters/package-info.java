/**
 * The dead-letter topic as an operator sees it: its records read back without a consumer group
 * ({@link io.bucketer.deadletters.DeadLetterReader}, assign and seek, so reading never moves
 * anybody's offsets), chosen by reason, time and offsets ({@link
 * io.bucketer.deadletters.DeadLetterFilter}), counted ({@link
 * io.bucketer.deadletters.DeadLetterSummary}), shown as far as they decode ({@link
 * io.bucketer.deadletters.DeadLetterDecoding}) and sent back to the input topic after a fix ({@link
 * io.bucketer.deadletters.DeadLetterReplay}). Plain Kafka clients, the topics' contracts and the
 * input decoders; never Kafka Streams or MongoDB. {@code cli.DeadLettersCommand} is the thin
 * command over it.
 */
package io.bucketer.deadletters;
