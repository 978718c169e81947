package io.odradek.broker.txn;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** An {@link InterBrokerSender} that records each request and answers with what the test set per broker. */
public final class RecordingSender implements InterBrokerSender {
    public record Sent(int brokerId, ApiSpec api, short version, Struct request) {
    }

    public final List<Sent> sent = new ArrayList<>();
    private final Map<Integer, Function<Struct, Struct>> answers = new HashMap<>();

    /** Broker {@code brokerId} answers each request with {@code answer.apply(request)}; unset: unreachable. */
    public RecordingSender answering(int brokerId, Function<Struct, Struct> answer) {
        answers.put(brokerId, answer);
        return this;
    }

    /** What was sent so far (a copy: senders may be coordinator threads). */
    public synchronized List<Sent> sentSoFar() {
        return List.copyOf(sent);
    }

    @Override
    public synchronized CompletableFuture<Struct> send(int brokerId, ApiSpec api, short version, Struct request) {
        sent.add(new Sent(brokerId, api, version, request));
        Function<Struct, Struct> answer = answers.get(brokerId);
        if (answer == null) {
            return CompletableFuture.failedFuture(new java.io.IOException("Connection refused: broker " + brokerId));
        }
        return CompletableFuture.completedFuture(answer.apply(request));
    }
}
