package dev.degradation.testapp;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import reactor.blockhound.BlockHound;

/**
 * The blocking calls BlockHound saw on Reactor and Netty threads, for the tests that run under it
 * ({@code *UnderBlockHoundTests}). BlockHound is installed once in a JVM and keeps the callback
 * it was installed with, so every such test shares this one record instead of installing its own.
 */
public final class BlockingCalls {

	private static final List<String> calls = new CopyOnWriteArrayList<>();

	private static boolean installed;

	private BlockingCalls() {
	}

	/**
	 * Install BlockHound with this record as its callback, once per JVM.
	 */
	public static synchronized void install() {
		if (installed) {
			return;
		}
		BlockHound.builder()
			.loadIntegrations()
			// Netty 4.2's adaptive allocator takes a StampedLock write lock for the moment it grows
			// its magazines; Netty's own integration does not list it yet (netty/netty#14564 covers
			// only its thread locals), and it is a hand-off, not I/O. Seen on Reactor's parallel
			// threads, where the starter resumes admitted exchanges and answers are encoded.
			.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup", "tryExpandMagazines")
			.blockingMethodCallback((method) -> {
			StringWriter trace = new StringWriter();
			new Exception(method + " on " + Thread.currentThread().getName()).printStackTrace(new PrintWriter(trace));
			calls.add(trace.toString());
		}).install();
		installed = true;
	}

	/**
	 * Return the blocking calls seen since the last {@link #clear()}, each as a stack trace.
	 * @return the calls
	 */
	public static List<String> seen() {
		return calls;
	}

	/**
	 * Forget the calls seen so far.
	 */
	public static void clear() {
		calls.clear();
	}

}
