/** issue 11 (container): {@code OdradekContainer}, the broker's image for Testcontainers users. */
package io.odradek.container;
