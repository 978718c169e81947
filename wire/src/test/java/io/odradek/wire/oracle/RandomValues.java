package io.odradek.wire.oracle;

import java.util.Random;

/** Random primitive values for the message generators: short strings with multi-byte characters, small byte arrays. */
class RandomValues {
    private static final String CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._é字";

    final Random random;

    RandomValues(long seed) {
        this.random = new Random(seed);
    }

    boolean chance(int percent) {
        return random.nextInt(100) < percent;
    }

    /** 0 to 3 elements. */
    int arraySize() {
        return random.nextInt(4);
    }

    String string() {
        int length = random.nextInt(12);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        return sb.toString();
    }

    byte[] bytes() {
        byte[] bytes = new byte[random.nextInt(20)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A finite double (Kafka and Netty both write its raw bits, so any finite value round-trips). */
    double float64() {
        return (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20));
    }
}
