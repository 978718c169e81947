package io.odradek.security.scram;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * RFC 5802's functions for one mechanism: Hi (PBKDF2 with the mechanism's HMAC), HMAC, H, and the keys derived
 * from a salted password (ClientKey, StoredKey, ServerKey), as Kafka's ScramFormatter.
 */
public final class ScramFormatter {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ScramMechanism mechanism;

    public ScramFormatter(ScramMechanism mechanism) {
        this.mechanism = mechanism;
    }

    public ScramMechanism mechanism() {
        return mechanism;
    }

    public byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance(mechanism.macAlgorithm);
            mac.init(new SecretKeySpec(key, mechanism.macAlgorithm));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mechanism.macAlgorithm + " is not available", e);
        }
    }

    public byte[] hash(byte[] message) {
        try {
            return MessageDigest.getInstance(mechanism.hashAlgorithm).digest(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mechanism.hashAlgorithm + " is not available", e);
        }
    }

    /** Hi(password, salt, i): PBKDF2 with HMAC, one block. */
    public byte[] hi(byte[] password, byte[] salt, int iterations) {
        byte[] block = new byte[salt.length + 4];
        System.arraycopy(salt, 0, block, 0, salt.length);
        block[block.length - 1] = 1;
        byte[] u = hmac(password, block);
        byte[] result = u.clone();
        for (int i = 1; i < iterations; i++) {
            u = hmac(password, u);
            for (int j = 0; j < result.length; j++) {
                result[j] ^= u[j];
            }
        }
        return result;
    }

    public byte[] saltedPassword(String password, byte[] salt, int iterations) {
        return hi(password.getBytes(StandardCharsets.UTF_8), salt, iterations);
    }

    public byte[] clientKey(byte[] saltedPassword) {
        return hmac(saltedPassword, "Client Key".getBytes(StandardCharsets.US_ASCII));
    }

    public byte[] storedKey(byte[] clientKey) {
        return hash(clientKey);
    }

    public byte[] serverKey(byte[] saltedPassword) {
        return hmac(saltedPassword, "Server Key".getBytes(StandardCharsets.US_ASCII));
    }

    /** The stored credential for a salted password (what AlterUserScramCredentials carries). */
    public ScramCredential credentialFromSaltedPassword(byte[] salt, byte[] saltedPassword, int iterations) {
        return new ScramCredential(salt.clone(), storedKey(clientKey(saltedPassword)), serverKey(saltedPassword),
                iterations);
    }

    /** The stored credential for a password with a fresh random salt (tests, tools). */
    public ScramCredential credential(String password, int iterations) {
        byte[] salt = new byte[32];
        RANDOM.nextBytes(salt);
        return credentialFromSaltedPassword(salt, saltedPassword(password, salt, iterations), iterations);
    }
}
