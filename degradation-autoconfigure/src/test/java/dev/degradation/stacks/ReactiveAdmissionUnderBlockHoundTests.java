package dev.degradation.stacks;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import reactor.blockhound.BlockHound;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReactiveAdmissionTests} with BlockHound watching every Reactor and Netty thread: no
 * blocking call is made from the starter's code on them while requests are decided, shed,
 * refused, made to wait for a place and admitted. Runs in a JVM of its own (the {@code blockhound}
 * execution), since BlockHound instruments the JVM for good.
 */
class ReactiveAdmissionUnderBlockHoundTests extends ReactiveAdmissionTests {

	private static final List<String> blockingCalls = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void installBlockHound() {
		BlockHound.builder().loadIntegrations().blockingMethodCallback((method) -> {
			StringWriter trace = new StringWriter();
			new Exception(method + " on " + Thread.currentThread().getName()).printStackTrace(new PrintWriter(trace));
			blockingCalls.add(trace.toString());
		}).install();
	}

	@AfterEach
	void noBlockingCallOfTheStarter() {
		// Only calls made by the starter's code: the server's own start-up reads files on its
		// threads, which is no decision's doing.
		assertThat(blockingCalls).filteredOn((trace) -> trace.contains("at dev.degradation.")
				&& !trace.contains("at dev.degradation.stacks.")).isEmpty();
	}

}
