package io.bucketer.ingest.sparkplug;

/** The message types of a Sparkplug B topic's third level (STATE: the second). */
public enum SparkplugMessageType {
  NBIRTH,
  NDEATH,
  DBIRTH,
  DDEATH,
  NDATA,
  DDATA,
  NCMD,
  DCMD,
  STATE;

  /** A BIRTH defines the metrics, names, aliases and datatypes, of a node or a device. */
  public boolean isBirth() {
    return this == NBIRTH || this == DBIRTH;
  }

  /** A DATA message's metrics are readings. */
  public boolean isData() {
    return this == NDATA || this == DDATA;
  }

  /** Of a device (its topic names one), rather than of the edge node itself. */
  public boolean isOfDevice() {
    return this == DBIRTH || this == DDEATH || this == DDATA || this == DCMD;
  }

  /**
   * Sent by the edge node and numbered by its {@code seq} (Sparkplug 3.0: NBIRTH, NDATA, DBIRTH,
   * DDATA and DDEATH); NDEATH is the broker's will and carries none, commands and STATE come from
   * host applications.
   */
  public boolean isSequenced() {
    return this == NBIRTH || this == NDATA || this == DBIRTH || this == DDATA || this == DDEATH;
  }
}
