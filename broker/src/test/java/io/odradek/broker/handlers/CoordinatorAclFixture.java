package io.odradek.broker.handlers;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.security.Session;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.Authorizer;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Calls a group or transaction handler as a client whose ACLs the test scripts: an {@link AllowList} of
 * "OPERATION TYPE name" entries (nothing else is allowed), in the session of the request's context, through
 * the real codec as {@link AdminFixture#call} does.
 */
final class CoordinatorAclFixture {
    private CoordinatorAclFixture() {
    }

    /** An authorizer that allows exactly the listed (operation, type, name) triples, nothing implied. */
    record AllowList(Set<String> allowed) implements Authorizer {
        /** Entries such as {@code "READ GROUP g"}, {@code "IDEMPOTENT_WRITE CLUSTER kafka-cluster"}. */
        static AllowList of(String... entries) {
            return new AllowList(Set.of(entries));
        }

        @Override
        public boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type,
                String name) {
            return allowed.contains(operation + " " + type + " " + name);
        }

        @Override
        public boolean authorizeAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type) {
            return allowed.stream().anyMatch(e -> e.startsWith(operation + " " + type + " "));
        }

        @Override
        public boolean enabled() {
            return true;
        }
    }

    /** No authorizer configured (as ALLOW_ALL), and one that fails the test if it is asked anything. */
    static final Authorizer NEVER_ASKED = new Authorizer() {
        @Override
        public boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type,
                String name) {
            throw new AssertionError("asked " + operation + " " + type + " " + name + " without an authorizer");
        }

        @Override
        public boolean authorizeAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type) {
            throw new AssertionError("asked " + operation + " on any " + type + " without an authorizer");
        }

        @Override
        public boolean enabled() {
            return false;
        }
    };

    /** An anonymous PLAINTEXT client on a broker without an authorizer that must not be asked anything. */
    static Session unauthorized() {
        return new Session(KafkaPrincipal.ANONYMOUS, "PLAINTEXT", SecurityProtocol.PLAINTEXT, InetAddress.getLoopbackAddress(),
                NEVER_ASKED);
    }

    /** User:alice on a SASL_PLAINTEXT listener from 127.0.0.1, allowed exactly {@code entries}. */
    static Session alice(String... entries) {
        return new Session(new KafkaPrincipal("User", "alice"), "PLAINTEXT", SecurityProtocol.SASL_PLAINTEXT,
                InetAddress.getLoopbackAddress(), AllowList.of(entries));
    }

    static Struct call(ApiHandler handler, int version, Struct request, Session session) {
        ApiSpec api = handler.api();
        short v = (short) version;
        Struct decodedRequest = AdminFixture.roundTrip(api.request(), request, v, api.isFlexible(v));
        RequestContext context = new RequestContext(new RequestHeader(api.key(), v, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE, ImmediateEventExecutor.INSTANCE.newPromise(), null, session);
        Struct response;
        try {
            response = handler.handle(context, decodedRequest).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(api.name() + " v" + version + " failed", e);
        }
        return AdminFixture.roundTrip(api.response(), response, v, api.isFlexible(v));
    }

    /** Error codes as names, for readable assertions. */
    static List<String> names(List<Short> codes) {
        return codes.stream().map(c -> io.odradek.wire.ErrorCode.forCode(c).name()).toList();
    }
}
