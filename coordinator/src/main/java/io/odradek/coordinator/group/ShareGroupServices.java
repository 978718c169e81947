package io.odradek.coordinator.group;

import io.odradek.coordinator.share.SharePersister;

/**
 * What share groups need beyond the group coordinator's own config (issue 12): their settings, the groups'
 * dynamic configs, and where share-partition state is kept. A null persister means no share state is kept
 * (a coordinator without a share coordinator, in tests): partitions count as initialized at once.
 */
public record ShareGroupServices(ShareGroupConfig config, GroupConfigSource groupConfigs, SharePersister persister) {
    public static final ShareGroupServices DEFAULTS = new ShareGroupServices(ShareGroupConfig.defaults(), GroupConfigSource.NONE, null);

    public ShareGroupServices {
        if (config == null) {
            config = ShareGroupConfig.defaults();
        }
        if (groupConfigs == null) {
            groupConfigs = GroupConfigSource.NONE;
        }
    }
}
