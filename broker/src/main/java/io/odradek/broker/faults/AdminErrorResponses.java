package io.odradek.broker.faults;

import io.odradek.broker.api.ApiVersionCap;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.CreateTopicsApi;
import io.odradek.wire.api.DeleteTopicsApi;
import io.odradek.wire.api.DescribeConfigsApi;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * issue 11 (faults): error responses of ApiVersions and the admin APIs a client library's retries meet (see
 * {@link ErrorResponses}); each as Kafka 4.4's {@code getErrorResponse} of that request builds it.
 */
final class AdminErrorResponses {
    private AdminErrorResponses() {
    }

    /** CreateTopics: every requested topic gets the error. */
    static Struct createTopics(short version, Struct request, short error) {
        Struct response = CreateTopicsApi.SPEC.response().newStruct();
        for (Struct topic : request.get(CreateTopicsApi.Request.TOPICS)) {
            response.add(CreateTopicsApi.Response.TOPICS)
                    .set(CreateTopicsApi.Response.CreatableTopicResult.NAME,
                            topic.get(CreateTopicsApi.Request.CreatableTopic.NAME))
                    .set(CreateTopicsApi.Response.CreatableTopicResult.ERROR_CODE, error)
                    .set(CreateTopicsApi.Response.CreatableTopicResult.ERROR_MESSAGE, null);
        }
        return response;
    }

    /** DeleteTopics: every requested topic (v6+: name or id, as asked) gets the error. */
    static Struct deleteTopics(short version, Struct request, short error) {
        Struct response = DeleteTopicsApi.SPEC.response().newStruct();
        if (version < 6) {
            for (String name : request.get(DeleteTopicsApi.Request.TOPIC_NAMES)) {
                response.add(DeleteTopicsApi.Response.RESPONSES)
                        .set(DeleteTopicsApi.Response.DeletableTopicResult.NAME, name)
                        .set(DeleteTopicsApi.Response.DeletableTopicResult.ERROR_CODE, error)
                        .set(DeleteTopicsApi.Response.DeletableTopicResult.ERROR_MESSAGE, null);
            }
            return response;
        }
        for (Struct topic : request.get(DeleteTopicsApi.Request.TOPICS)) {
            response.add(DeleteTopicsApi.Response.RESPONSES)
                    .set(DeleteTopicsApi.Response.DeletableTopicResult.NAME,
                            topic.get(DeleteTopicsApi.Request.DeleteTopicState.NAME))
                    .set(DeleteTopicsApi.Response.DeletableTopicResult.TOPIC_ID,
                            topic.get(DeleteTopicsApi.Request.DeleteTopicState.TOPIC_ID))
                    .set(DeleteTopicsApi.Response.DeletableTopicResult.ERROR_CODE, error)
                    .set(DeleteTopicsApi.Response.DeletableTopicResult.ERROR_MESSAGE, null);
        }
        return response;
    }

    /** DescribeConfigs: every requested resource gets the error and no configs. */
    static Struct describeConfigs(short version, Struct request, short error) {
        Struct response = DescribeConfigsApi.SPEC.response().newStruct();
        for (Struct resource : request.get(DescribeConfigsApi.Request.RESOURCES)) {
            response.add(DescribeConfigsApi.Response.RESULTS)
                    .set(DescribeConfigsApi.Response.DescribeConfigsResult.ERROR_CODE, error)
                    .set(DescribeConfigsApi.Response.DescribeConfigsResult.ERROR_MESSAGE, null)
                    .set(DescribeConfigsApi.Response.DescribeConfigsResult.RESOURCE_TYPE,
                            resource.get(DescribeConfigsApi.Request.DescribeConfigsResource.RESOURCE_TYPE))
                    .set(DescribeConfigsApi.Response.DescribeConfigsResult.RESOURCE_NAME,
                            resource.get(DescribeConfigsApi.Request.DescribeConfigsResource.RESOURCE_NAME))
                    .set(DescribeConfigsApi.Response.DescribeConfigsResult.CONFIGS, List.of());
        }
        return response;
    }

    /**
     * ApiVersions: the error and no API ranges, except that UNSUPPORTED_VERSION lists ApiVersions' own range
     * (KIP-511), as Kafka does, so the client can retry with a version we take.
     */
    static Struct apiVersions(short version, Struct request, short error) {
        return apiVersions(version, request, error, ApiVersionCap.NONE.advertised(ApiVersionsApi.SPEC));
    }

    /** As above, listing {@code offered}: ApiVersions' range as advertised (an emulated release's, emulating). */
    static Struct apiVersions(short version, Struct request, short error, ApiVersionCap.Range offered) {
        Struct response = ApiVersionsApi.SPEC.response().newStruct()
                .set(ApiVersionsApi.Response.ERROR_CODE, error)
                .set(ApiVersionsApi.Response.API_KEYS, List.of());
        if (error == ErrorCode.UNSUPPORTED_VERSION.code()) {
            response.add(ApiVersionsApi.Response.API_KEYS)
                    .set(ApiVersionsApi.Response.ApiVersion.API_KEY, ApiVersionsApi.SPEC.key())
                    .set(ApiVersionsApi.Response.ApiVersion.MIN_VERSION, offered.minVersion())
                    .set(ApiVersionsApi.Response.ApiVersion.MAX_VERSION, offered.maxVersion());
        }
        return response;
    }
}
