package io.odradek.broker.network;

import io.odradek.broker.faults.FaultInjector;
import io.odradek.broker.metrics.RequestMetrics;

/**
 * issue 11: what the dispatcher reports every request to and asks about it, besides its handler: the request meters
 * and the fault injector. {@link #NONE} for servers that have neither (tests).
 */
public record RequestHooks(FaultInjector faults, RequestMetrics metrics) {
    public static final RequestHooks NONE = new RequestHooks(FaultInjector.NONE, RequestMetrics.NONE);
}
