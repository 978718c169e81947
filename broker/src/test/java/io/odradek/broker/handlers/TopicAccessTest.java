package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.security.Session;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.header.RequestHeader;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The per-request topic answers the data path relies on: free without an authorizer, one question per topic with one. */
class TopicAccessTest {
    private static RequestContext context(Session session) {
        return new RequestContext(new RequestHeader((short) 0, (short) 9, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE, ImmediateEventExecutor.INSTANCE.newPromise(), null, session);
    }

    @Test
    void withoutAnAuthorizerEveryRequestSharesOneAllowAllInstance() {
        TopicAccess first = TopicAccess.of(context(Session.PLAINTEXT_ANONYMOUS), AclOperation.WRITE);
        TopicAccess second = TopicAccess.of(context(Session.PLAINTEXT_ANONYMOUS), AclOperation.READ);

        assertThat(first).isSameAs(second);
        assertThat(first.allowsEverything()).isTrue();
        assertThat(first.allowed("anything")).isTrue();
    }

    @Test
    void withAnAuthorizerEachTopicIsAskedOncePerRequest() {
        ScriptedAuthorizer acls = new ScriptedAuthorizer().allowTopic(AclOperation.WRITE, "orders");
        TopicAccess access = TopicAccess.of(context(acls.session()), AclOperation.WRITE);

        assertThat(access.allowsEverything()).isFalse();
        assertThat(access.allowed("orders")).isTrue();
        assertThat(access.allowed("orders")).isTrue();
        assertThat(access.allowed("payments")).isFalse();
        assertThat(access.allowed("payments")).isFalse();
        assertThat(acls.asked).containsExactly(
                new ScriptedAuthorizer.Grant(AclOperation.WRITE, ResourceType.TOPIC, "orders"),
                new ScriptedAuthorizer.Grant(AclOperation.WRITE, ResourceType.TOPIC, "payments"));
    }
}
