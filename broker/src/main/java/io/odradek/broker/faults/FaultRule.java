package io.odradek.broker.faults;

import io.odradek.wire.ErrorCode;

/**
 * issue 11 (faults): one injected fault as {@link Faults#rules()} reports it: which requests it applies to (an API,
 * and a client id unless {@code clientId} is null), what happens to them, and how many more it will take.
 */
public record FaultRule(short apiKey, String api, String clientId, Fault fault, int remaining) {

    /** One line for logs and the admin endpoint: "next 3 Produce requests (client id x): error NOT_LEADER_OR_FOLLOWER". */
    public String describe() {
        return "next " + remaining + " " + api + " request" + (remaining == 1 ? "" : "s")
                + (clientId == null ? "" : " (client id " + clientId + ")") + ": " + action();
    }

    /** What happens to a matching request: "error NOT_LEADER_OR_FOLLOWER", "delay 500 ms" or "drop". */
    public String action() {
        if (fault instanceof Fault.Error e) {
            return "error " + ErrorCode.forCode(e.errorCode()).name();
        }
        if (fault instanceof Fault.Delay d) {
            return "delay " + d.millis() + " ms";
        }
        return "drop";
    }
}
