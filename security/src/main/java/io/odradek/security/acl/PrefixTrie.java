package io.odradek.security.acl;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Values keyed by string prefixes, for finding every PREFIXED ACL pattern that applies to a resource name in
 * time proportional to the name's length, whatever the number of patterns. Filled once while an {@link AclIndex}
 * is built, then only read (published through the index's final fields).
 */
final class PrefixTrie<V> {
    private static final class Node<V> {
        final Map<Character, Node<V>> children = new HashMap<>(4);
        V value;
    }

    private final Node<V> root = new Node<>();
    private int size;

    /** The value at {@code prefix} (which must not be empty), created by {@code create} when absent. */
    V computeIfAbsent(String prefix, java.util.function.Supplier<V> create) {
        Node<V> node = root;
        for (int i = 0; i < prefix.length(); i++) {
            node = node.children.computeIfAbsent(prefix.charAt(i), c -> new Node<>());
        }
        if (node.value == null) {
            node.value = create.get();
            size++;
        }
        return node.value;
    }

    /** Calls {@code visit} with the value of every stored prefix of {@code name} (the name itself included). */
    void forEachPrefixOf(String name, Consumer<V> visit) {
        Node<V> node = root;
        for (int i = 0; i < name.length(); i++) {
            node = node.children.get(name.charAt(i));
            if (node == null) {
                return;
            }
            if (node.value != null) {
                visit.accept(node.value);
            }
        }
    }

    int size() {
        return size;
    }
}
