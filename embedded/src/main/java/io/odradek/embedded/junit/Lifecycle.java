package io.odradek.embedded.junit;

/** When {@link EmbeddedOdradek} starts a broker (or cluster), and how long it lives. */
public enum Lifecycle {
    /** One for the test class, shared by its tests (and its @Nested classes), closed after the last of them. */
    PER_CLASS,
    /** A fresh one for each test, closed after it: no topic or record of one test is seen by the next. */
    PER_TEST
}
