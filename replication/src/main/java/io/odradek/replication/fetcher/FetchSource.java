package io.odradek.replication.fetcher;

/** The leader a follower fetches from: its broker id and the endpoint of the inter-broker listener. */
public record FetchSource(int brokerId, String host, int port) {
    @Override
    public String toString() {
        return "broker " + brokerId + " (" + host + ":" + port + ")";
    }
}
