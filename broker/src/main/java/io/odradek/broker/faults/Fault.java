package io.odradek.broker.faults;

/** issue 11 (faults): what happens to a request a {@link FaultInjector} picked. */
public sealed interface Fault {
    /** Answered at once with Kafka's error {@code errorCode} wherever the API's response carries one; not handled. */
    record Error(short errorCode) implements Fault {
    }

    /** Handled normally, but only after {@code millis}. */
    record Delay(long millis) implements Fault {
    }

    /** The connection is closed without an answer (responses already written stay written). */
    record Drop() implements Fault {
    }
}
