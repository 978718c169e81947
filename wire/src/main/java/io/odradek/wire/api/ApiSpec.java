package io.odradek.wire.api;

import io.odradek.wire.schema.Schema;

/**
 * One Kafka API as the protocol defines it: key, the version range Odradek reads and writes, the first
 * flexible version, and the request and response schemas covering every version in that range.
 */
public record ApiSpec(short key, String name, short minVersion, short maxVersion, short flexibleFrom,
        Schema request, Schema response) {

    public ApiSpec(int key, String name, int minVersion, int maxVersion, int flexibleFrom, Schema request,
            Schema response) {
        this((short) key, name, (short) minVersion, (short) maxVersion, (short) flexibleFrom, request, response);
    }

    public boolean supports(short version) {
        return version >= minVersion && version <= maxVersion;
    }

    public boolean isFlexible(short version) {
        return flexibleFrom >= 0 && version >= flexibleFrom;
    }

    /** Request header v2 (with tagged fields) for flexible versions, else v1. */
    public short requestHeaderVersion(short version) {
        return (short) (isFlexible(version) ? 2 : 1);
    }

    /**
     * Response header v1 (with tagged fields) for flexible versions, else v0. ApiVersions always answers
     * with v0, so a client that does not yet know our versions can read the reply.
     */
    public short responseHeaderVersion(short version) {
        return (short) (isFlexible(version) && key != ApiVersionsApi.SPEC.key() ? 1 : 0);
    }
}
