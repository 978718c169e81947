/**
 * issue 11 (embedded): an Odradek broker or cluster started in the calling JVM ({@code Odradek.builder()...start()})
 * and the JUnit 5 extension that starts one per test class or per test.
 */
package io.odradek.embedded;
