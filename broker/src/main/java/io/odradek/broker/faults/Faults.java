package io.odradek.broker.faults;

/**
 * issue 11 (faults): the broker's injected faults, set through the admin endpoint or the embedded API. SEAM
 * (integrator): the faults engineer writes the rules; the signatures below are the contract.
 */
public final class Faults implements FaultInjector {
    @Override
    public Fault next(short apiKey, short version, String clientId) {
        return null;
    }
}
