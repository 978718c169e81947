package io.odradek.embedded;

/**
 * Run in a JVM of its own by {@link StartTimeTest}: one embedded broker started and asked ApiVersions, the time
 * from before {@code start()} to the answer printed as "first-request-ms=N" (class loading included, as a test
 * suite's first broker pays it).
 */
public final class FirstStartInAFreshJvm {
    private FirstStartInAFreshJvm() {
    }

    public static void main(String[] args) throws Exception {
        long begin = System.nanoTime();
        try (Odradek odradek = Odradek.start()) {
            RawApiVersions.Answer answer = RawApiVersions.ask(odradek.bootstrapServers(), 42);
            long millis = (System.nanoTime() - begin) / 1_000_000;
            if (answer.correlationId() != 42 || answer.errorCode() != 0) {
                throw new IllegalStateException("unexpected ApiVersions answer " + answer);
            }
            System.out.println("first-request-ms=" + millis);
        }
    }
}
