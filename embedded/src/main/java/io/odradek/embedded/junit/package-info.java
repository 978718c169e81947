/**
 * issue 11 (embedded): the JUnit 5 extension, {@link io.odradek.embedded.junit.EmbeddedOdradek @EmbeddedOdradek},
 * which starts an embedded Odradek per test class or per test and injects it. junit-jupiter-api is an optional
 * dependency of odradek-embedded: this package is usable only where JUnit 5 is on the class path already.
 */
package io.odradek.embedded.junit;
