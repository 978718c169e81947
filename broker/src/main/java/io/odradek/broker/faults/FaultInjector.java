package io.odradek.broker.faults;

/**
 * issue 11 (faults): what the dispatcher asks about each decoded request before its handler sees it. Called on the
 * connection's event loop for every request, so an implementation must be cheap and never block; with no fault
 * configured it must answer null at the cost of one volatile read.
 */
public interface FaultInjector {
    /** Serves every request normally. */
    FaultInjector NONE = (apiKey, version, clientId) -> null;

    /**
     * The fault to apply to this request (and one use of it consumed), or null to serve it normally.
     *
     * @param clientId the request header's client id (may be null or empty)
     */
    Fault next(short apiKey, short version, String clientId);
}
