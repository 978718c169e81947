package io.odradek.broker.faults;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.Apis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * issue 11 (faults): the faults injected into one broker's request handling, set through the embedded API
 * ({@code Broker.faults()}) or the admin HTTP endpoint ({@link AdminEndpoint}); kfake and librdkafka's mock cluster
 * have the same, Kafka has nothing like it.
 *
 * <p>A rule names an API (Kafka's name, case-insensitive, or its key), optionally a client id, and a number of uses;
 * each request it matches uses one, and it is gone when none are left. Rules are tried in the order they were added,
 * so "fail the next 2 Produce requests, then delay the next one" is two calls. The dispatcher asks {@link #next} for
 * every request on the event loop: with no rule that costs one volatile read; with rules, a short lock.
 *
 * <p>An error rule needs a way to answer the API with that error everywhere its response carries one
 * ({@link ErrorResponses}); an API without one is refused when the rule is added.
 */
public final class Faults implements FaultInjector {
    private static final System.Logger LOG = System.getLogger(Faults.class.getName());
    /** Bounds on what a rule may ask (the admin endpoint takes them from anyone who reaches it): rules at once, ... */
    public static final int MAX_RULES = 1000;
    /** ... uses of one rule, ... */
    public static final int MAX_TIMES = 1_000_000;
    /** ... and one delay, well past any client's request.timeout.ms. */
    public static final Duration MAX_DELAY = Duration.ofMinutes(5);
    private static final Rule[] NONE = new Rule[0];

    /** A rule with its remaining uses; changed only under the lock. */
    private static final class Rule {
        final short apiKey;
        final String api;
        final String clientId;
        final Fault fault;
        int remaining;

        Rule(short apiKey, String api, String clientId, Fault fault, int remaining) {
            this.apiKey = apiKey;
            this.api = api;
            this.clientId = clientId;
            this.fault = fault;
            this.remaining = remaining;
        }

        boolean matches(short key, String requestClientId) {
            return apiKey == key && (clientId == null || clientId.equals(requestClientId));
        }

        FaultRule snapshot() {
            return new FaultRule(apiKey, api, clientId, fault, remaining);
        }
    }

    private final Object lock = new Object();
    /** The live rules in insertion order; replaced whole (copy on write) so that {@link #next} can skip the lock. */
    private volatile Rule[] rules = NONE;
    /** For {@link #allOf}: the brokers' own Faults this view writes to; empty for a broker's own. */
    private final List<Faults> members;

    public Faults() {
        this.members = List.of();
    }

    private Faults(List<Faults> members) {
        this.members = List.copyOf(members);
    }

    /**
     * A view over several brokers' Faults (an in-process cluster): a rule added here is added to each of them (each
     * broker fails its own next N requests); {@link #rules()} lists theirs in order; {@link #clear()} clears them all.
     * A view is not itself installed in a broker: its {@link #next} answers null.
     */
    public static Faults allOf(List<Faults> brokers) {
        return new Faults(brokers);
    }

    /**
     * The next {@code times} requests of {@code api} (from {@code clientId}, or from anyone when null) are answered
     * with {@code error} wherever their response carries an error code, without being handled.
     *
     * @throws IllegalArgumentException for an unknown API or error name, an API we cannot answer with an error
     *     (no builder in {@link ErrorResponses}), the error NONE, {@code times} outside 1..{@link #MAX_TIMES}, or when
     *     {@link #MAX_RULES} rules are already waiting
     */
    public Faults failNext(String api, String clientId, int times, String error) {
        ApiSpec spec = api(api);
        if (!ErrorResponses.supports(spec.key())) {
            throw new IllegalArgumentException("cannot inject errors into " + spec.name() + " (key " + spec.key()
                    + "): no error response is defined for it; supported: " + ErrorResponses.supportedNames());
        }
        return add(spec, clientId, times, new Fault.Error(errorCode(error).code()));
    }

    /** The next {@code times} requests of {@code api} are handled normally, but only after {@code delay}. */
    public Faults delayNext(String api, String clientId, int times, Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("delay must be zero or more, not " + delay);
        }
        if (delay.compareTo(MAX_DELAY) > 0) {
            throw new IllegalArgumentException("delay must be at most 5 minutes (" + MAX_DELAY.toMillis() + " ms), not "
                    + delay.toMillis() + " ms");
        }
        return add(api(api), clientId, times, new Fault.Delay(delay.toMillis()));
    }

    /** The connection that sends each of the next {@code times} requests of {@code api} is closed without an answer. */
    public Faults dropNext(String api, String clientId, int times) {
        return add(api(api), clientId, times, new Fault.Drop());
    }

    /** The rules with uses left, in the order they apply. */
    public List<FaultRule> rules() {
        if (!members.isEmpty()) {
            List<FaultRule> all = new ArrayList<>();
            members.forEach(m -> all.addAll(m.rules()));
            return all;
        }
        synchronized (lock) {
            List<FaultRule> out = new ArrayList<>();
            for (Rule r : rules) {
                out.add(r.snapshot());
            }
            return out;
        }
    }

    /** Removes every rule. */
    public void clear() {
        members.forEach(Faults::clear);
        synchronized (lock) {
            if (rules.length > 0) {
                LOG.log(System.Logger.Level.INFO, "fault injection: cleared " + rules.length + " rule(s)");
            }
            rules = NONE;
        }
    }

    @Override
    public Fault next(short apiKey, short version, String clientId) {
        if (rules.length == 0) {
            return null; // the common case: one volatile read
        }
        synchronized (lock) {
            Rule[] current = rules;
            for (int i = 0; i < current.length; i++) {
                Rule r = current[i];
                if (r.matches(apiKey, clientId)) {
                    if (--r.remaining == 0) {
                        Rule[] left = new Rule[current.length - 1];
                        System.arraycopy(current, 0, left, 0, i);
                        System.arraycopy(current, i + 1, left, i, current.length - i - 1);
                        rules = left;
                    }
                    return r.fault;
                }
            }
            return null;
        }
    }

    private Faults add(ApiSpec spec, String clientId, int times, Fault fault) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1, not " + times);
        }
        if (times > MAX_TIMES) {
            throw new IllegalArgumentException("times must be at most " + MAX_TIMES + ", not " + times);
        }
        if (!members.isEmpty()) {
            members.forEach(Faults::checkRoom); // all or none (a racing add may still fill one: then it throws)
            members.forEach(m -> m.add(spec, clientId, times, fault));
            return this;
        }
        Rule rule = new Rule(spec.key(), spec.name(), clientId, fault, times);
        synchronized (lock) {
            checkRoom();
            Rule[] grown = java.util.Arrays.copyOf(rules, rules.length + 1);
            grown[grown.length - 1] = rule;
            rules = grown;
        }
        LOG.log(System.Logger.Level.INFO, "fault injection: " + rule.snapshot().describe());
        return this;
    }

    private void checkRoom() {
        if (rules.length >= MAX_RULES) {
            throw new IllegalArgumentException("at most " + MAX_RULES + " rules at a time: clear them (DELETE /faults) or let some run out");
        }
    }

    /** Kafka's API name (case-insensitive) or its numeric key. */
    static ApiSpec api(String api) {
        if (api == null || api.isBlank()) {
            throw new IllegalArgumentException("no API named");
        }
        String name = api.trim();
        if (name.chars().allMatch(Character::isDigit) && name.length() <= 5) {
            int key = Integer.parseInt(name);
            ApiSpec spec = key <= Short.MAX_VALUE ? Apis.forKey((short) key) : null;
            if (spec == null) {
                throw new IllegalArgumentException("unknown API key " + name);
            }
            return spec;
        }
        for (ApiSpec spec : Apis.ALL) {
            if (spec.name().equalsIgnoreCase(name)) {
                return spec;
            }
        }
        throw new IllegalArgumentException("unknown API " + name + " (Kafka's API names, e.g. Produce, or keys)");
    }

    /** Kafka's error name, e.g. NOT_LEADER_OR_FOLLOWER (case-insensitive). */
    static ErrorCode errorCode(String error) {
        if (error == null || error.isBlank()) {
            throw new IllegalArgumentException("no error named");
        }
        ErrorCode code;
        try {
            code = ErrorCode.valueOf(error.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown error " + error + " (Kafka's error names, e.g. NOT_LEADER_OR_FOLLOWER)");
        }
        if (code == ErrorCode.NONE) {
            throw new IllegalArgumentException("NONE is not an error");
        }
        return code;
    }
}
