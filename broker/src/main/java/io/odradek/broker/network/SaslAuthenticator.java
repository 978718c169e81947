package io.odradek.broker.network;

import io.odradek.broker.security.SaslServerSettings;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.sasl.SaslAuthenticationException;
import io.odradek.security.sasl.SaslInvalidCredentialsException;
import io.odradek.security.sasl.SaslServerMechanism;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.Apis;
import io.odradek.wire.api.SaslAuthenticateApi;
import io.odradek.wire.api.SaslHandshakeApi;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One SASL connection's authentication, as Kafka's SaslServerAuthenticator (no I/O: the connection asks what to
 * do with each request and writes what it is told). Before authentication only ApiVersions (once, before the
 * handshake), SaslHandshake and SaslAuthenticate are served; any other request closes the connection without an
 * answer. SaslHandshake v0 means the client then sends raw SASL tokens (frames without a request header, answered
 * by raw frames); v1 means SaslAuthenticate requests. An unknown mechanism gets UNSUPPORTED_SASL_MECHANISM, a failed
 * exchange SASL_AUTHENTICATION_FAILED with Kafka's message (or its generic one when the detail would tell whether a
 * user exists; also when the mechanism threw, e.g. on input its parser could not cope with); the connection is
 * closed after either answer.
 *
 * <p>KIP-368: when {@code connections.max.reauth.ms} is set for the mechanism, or the credential expires (an
 * OAUTHBEARER token), the session lasts min(both) and SaslAuthenticate v1+ tells the client so; a request after
 * the session expired closes the connection. While the session has a lifetime, the client may re-authenticate on the
 * open connection with a new SaslHandshake (same mechanism, same principal: anything else closes it; at most once a
 * second, as Kafka; a handshake otherwise is served by the SaslHandshake handler: ILLEGAL_SASL_STATE).
 */
final class SaslAuthenticator {
    enum State { HANDSHAKE_OR_VERSIONS, HANDSHAKE, AUTHENTICATE, AUTHENTICATE_RAW, REAUTH_BAD_MECHANISM, COMPLETE, FAILED }

    /** What the connection does with a request before it is decoded. */
    enum Gate { SERVE, AUTHENTICATOR, CLOSE }

    /**
     * The answer to a SASL request or raw token: a response body (requests) or raw bytes (tokens), or neither;
     * {@code close} once it is written; {@code authenticated} the principal when the exchange just completed.
     */
    record Outcome(Struct response, byte[] rawResponse, boolean close, KafkaPrincipal authenticated, String why) {
        static Outcome closeNow(String why) {
            return new Outcome(null, null, true, null, why);
        }
    }

    private final SaslServerSettings settings;
    private final LongSupplier nanoClock;
    private State state = State.HANDSHAKE_OR_VERSIONS;
    private SaslServerMechanism server;
    private String mechanism;
    private KafkaPrincipal principal;
    private boolean reauthenticating;
    private long lastReauthStartNanos;
    private static final long MIN_REAUTH_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private String badMechanismMessage;
    /** Set when the session expires (KIP-368); else {@link #expires} is false. */
    private long sessionExpiryNanos;
    private boolean expires;
    /** Why the last gate said CLOSE, for the log. */
    private String closeReason;

    SaslAuthenticator(SaslServerSettings settings, LongSupplier nanoClock) {
        this.settings = settings;
        this.nanoClock = nanoClock;
    }

    State state() {
        return state;
    }

    boolean authenticated() {
        return state == State.COMPLETE;
    }

    /** After SaslHandshake v0: the next frames are raw SASL tokens. */
    boolean rawTokens() {
        return state == State.AUTHENTICATE_RAW;
    }

    /** {@code sasl.server.max.receive.size}: the bound on frames before authentication. */
    int maxReceiveSize() {
        return settings.maxReceiveSize();
    }

    String closeReason() {
        return closeReason;
    }

    /** Before a handshake only SaslHandshake goes on; anything else closes the connection. */
    private Gate expectHandshake(short apiKey, String name) {
        if (apiKey == SaslHandshakeApi.SPEC.key()) {
            return Gate.AUTHENTICATOR;
        }
        return close("Unexpected Kafka request of type " + name + " during SASL handshake.");
    }

    /** What to do with a request of {@code apiKey}, judged from its header before the body is read. */
    Gate gate(short apiKey) {
        String name = apiName(apiKey);
        switch (state) {
            case HANDSHAKE_OR_VERSIONS:
                if (apiKey == ApiVersionsApi.SPEC.key()) {
                    return Gate.SERVE;
                }
                return expectHandshake(apiKey, name);
            case HANDSHAKE:
                return expectHandshake(apiKey, name);
            case AUTHENTICATE:
                if (apiKey == SaslAuthenticateApi.SPEC.key()) {
                    return Gate.AUTHENTICATOR;
                }
                return close("Unexpected Kafka request of type " + name + " during SASL authentication.");
            case REAUTH_BAD_MECHANISM:
                return close(badMechanismMessage);
            case COMPLETE: {
                long now = nanoClock.getAsLong();
                // As Kafka's KafkaChannel: a handshake on a session that expires re-authenticates (even a little
                // late: clients only start when they have something to send), at most once a second.
                if (apiKey == SaslHandshakeApi.SPEC.key() && expires
                        && (lastReauthStartNanos == 0 || now - lastReauthStartNanos >= MIN_REAUTH_INTERVAL_NANOS)) {
                    lastReauthStartNanos = now;
                    return Gate.AUTHENTICATOR;
                }
                if (expires && now - sessionExpiryNanos >= 0) {
                    return close("the SASL session expired (connections.max.reauth.ms or credential lifetime)");
                }
                return Gate.SERVE;
            }
            default:
                return close("SASL authentication failed or is in state " + state);
        }
    }

    private Gate close(String why) {
        closeReason = why;
        state = State.FAILED;
        return Gate.CLOSE;
    }

    /** An ApiVersions request with a body we read was answered: only the handshake may follow. */
    void versionsAnswered() {
        if (state == State.HANDSHAKE_OR_VERSIONS) {
            state = State.HANDSHAKE;
        }
    }

    /** A SaslHandshake or SaslAuthenticate request the gate gave to this authenticator. */
    Outcome handle(ApiSpec api, short version, Struct body) {
        if (api == SaslHandshakeApi.SPEC) {
            return handshake(version, body.get(SaslHandshakeApi.Request.MECHANISM));
        }
        byte[] token = body.get(SaslAuthenticateApi.Request.AUTH_BYTES);
        try {
            byte[] challenge = server.evaluateResponse(token == null ? new byte[0] : token);
            KafkaPrincipal done = server.isComplete() ? complete() : null;
            long lifetimeMs = done == null ? 0 : sessionLifetimeMs;
            Struct response = SaslAuthenticateApi.Response.SCHEMA.newStruct()
                    .set(SaslAuthenticateApi.Response.ERROR_CODE, ErrorCode.NONE.code())
                    .set(SaslAuthenticateApi.Response.ERROR_MESSAGE, null)
                    .set(SaslAuthenticateApi.Response.AUTH_BYTES, challenge == null ? new byte[0] : challenge)
                    .set(SaslAuthenticateApi.Response.SESSION_LIFETIME_MS, lifetimeMs);
            return new Outcome(response, null, false, done, null);
        } catch (SaslAuthenticationException e) {
            String message = e instanceof SaslInvalidCredentialsException
                    ? SaslInvalidCredentialsException.clientMessage(mechanism, reauthenticating) : e.getMessage();
            return failed(message, e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            // A mechanism's state error, or input it could not cope with (a parser's stack): the client's message is
            // refused like bad credentials, with the generic text, and the connection then closes.
            return failed(SaslInvalidCredentialsException.clientMessage(mechanism, reauthenticating),
                    e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private Outcome failed(String clientMessage, String why) {
        state = State.FAILED;
        Struct response = SaslAuthenticateApi.Response.SCHEMA.newStruct()
                .set(SaslAuthenticateApi.Response.ERROR_CODE, ErrorCode.SASL_AUTHENTICATION_FAILED.code())
                .set(SaslAuthenticateApi.Response.ERROR_MESSAGE, clientMessage)
                .set(SaslAuthenticateApi.Response.AUTH_BYTES, new byte[0])
                .set(SaslAuthenticateApi.Response.SESSION_LIFETIME_MS, 0L);
        return new Outcome(response, null, true, null, "SASL " + mechanism + " " + authText() + " failed: " + why);
    }

    /** A raw SASL token (after SaslHandshake v0): the answer goes back as a raw frame; a failure just closes. */
    Outcome rawToken(byte[] token) {
        try {
            byte[] challenge = server.evaluateResponse(token);
            KafkaPrincipal done = server.isComplete() ? complete() : null;
            return new Outcome(null, challenge == null ? new byte[0] : challenge, false, done, null);
        } catch (SaslAuthenticationException | RuntimeException | StackOverflowError e) {
            state = State.FAILED;
            return Outcome.closeNow("SASL " + mechanism + " " + authText() + " failed: " + e.getMessage());
        }
    }

    private Outcome handshake(short version, String requested) {
        if (state == State.COMPLETE) {
            reauthenticating = true;
        }
        Struct response = SaslHandshakeApi.Response.SCHEMA.newStruct()
                .set(SaslHandshakeApi.Response.MECHANISMS, settings.enabledMechanisms());
        if (requested == null || !settings.enabledMechanisms().contains(requested)) {
            state = State.FAILED;
            response.set(SaslHandshakeApi.Response.ERROR_CODE, ErrorCode.UNSUPPORTED_SASL_MECHANISM.code());
            return new Outcome(response, null, true, null, "Unsupported SASL mechanism " + requested);
        }
        response.set(SaslHandshakeApi.Response.ERROR_CODE, ErrorCode.NONE.code());
        if (reauthenticating && !requested.equals(mechanism)) {
            // As Kafka: the handshake is answered, the next request fails the re-authentication.
            badMechanismMessage = "SASL mechanism '" + requested + "' requested by client is not supported for "
                    + "re-authentication of mechanism '" + mechanism + "'";
            state = State.REAUTH_BAD_MECHANISM;
            return new Outcome(response, null, false, null, null);
        }
        mechanism = requested;
        server = settings.newServer(requested);
        state = version >= 1 ? State.AUTHENTICATE : State.AUTHENTICATE_RAW;
        return new Outcome(response, null, false, null, null);
    }

    private long sessionLifetimeMs;

    /** The exchange completed: the principal (the same one when re-authenticating), the session's lifetime. */
    private KafkaPrincipal complete() throws SaslAuthenticationException {
        KafkaPrincipal authenticatedAs = KafkaPrincipal.user(server.authorizationId());
        if (reauthenticating && !authenticatedAs.equals(principal)) {
            throw new SaslAuthenticationException("Cannot change principals during re-authentication from "
                    + principal.type() + "." + principal.name() + ": " + authenticatedAs.type() + "."
                    + authenticatedAs.name());
        }
        long now = nanoClock.getAsLong();
        long credentialMs = server.credentialLifetimeMs();
        long maxReauthMs = settings.maxReauthMs(mechanism);
        boolean maxReauthSet = maxReauthMs > 0;
        sessionLifetimeMs = 0;
        expires = false;
        if (credentialMs >= 0 || maxReauthSet) {
            long lifetime = credentialMs < 0 ? maxReauthMs : !maxReauthSet ? credentialMs
                    : Math.min(credentialMs, maxReauthMs);
            sessionLifetimeMs = Math.max(0, lifetime);
            sessionExpiryNanos = now + TimeUnit.MILLISECONDS.toNanos(sessionLifetimeMs);
            expires = true;
        }
        principal = authenticatedAs;
        state = State.COMPLETE;
        return authenticatedAs;
    }

    private String authText() {
        return reauthenticating ? "re-authentication" : "authentication";
    }

    private static String apiName(short key) {
        ApiSpec api = Apis.forKey(key);
        return api == null ? "key " + key : api.name();
    }
}
