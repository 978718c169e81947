package io.odradek.security.scram;

/**
 * A user's stored SCRAM credential for one mechanism (RFC 5802), as Kafka keeps it in its metadata
 * (UserScramCredentialRecord): the salt, StoredKey = H(ClientKey), ServerKey and the iteration count. The
 * password itself is never stored; AlterUserScramCredentials brings the salted password, from which the two
 * keys are derived.
 */
public record ScramCredential(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {
}
