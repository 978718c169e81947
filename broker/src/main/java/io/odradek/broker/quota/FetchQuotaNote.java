package io.odradek.broker.quota;

/**
 * Client quotas (issue 9, quotafix): what the fetch handler's own quota check decided for one consumer fetch,
 * handed to the dispatcher beside the response rather than in it: a response's {@code ThrottleTimeMs} is
 * missing in Fetch v0 and cannot say whether the handler already answered throttled. Made by
 * {@link RequestThrottler#beforeHandle} only while some quota is configured; used on the connection's event
 * loop only (the handler's check runs there too, parked fetches included).
 */
public final class FetchQuotaNote {
    private final long startNanos;
    private long handlerNanos = -1;
    private boolean checked;
    private int throttleMs;

    FetchQuotaNote(long startNanos) {
        this.startNanos = startNanos;
    }

    /** The dispatcher: the handler's call returned after this long (a parked fetch is checked later). */
    public void handlerReturned(long nanos) {
        handlerNanos = nanos;
    }

    /** The handling time to count when the check runs: the call so far, or the whole call once it returned. */
    long handlingNanos(long nowNanos) {
        return handlerNanos >= 0 ? handlerNanos : nowNanos - startNanos;
    }

    /** The check ran: this throttle (0: none) is the fetch's, its request time is counted, its answer final. */
    void checked(int throttleMs) {
        this.checked = true;
        this.throttleMs = throttleMs;
    }

    boolean isChecked() {
        return checked;
    }

    int throttleMs() {
        return throttleMs;
    }
}
