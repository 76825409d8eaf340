package dev.degradation.test.testapp;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shop's own plug-ins, as beans: the {@code notice} fallback kind and the status board's
 * health source. Manifest: {@code contract/plugins.yaml}.
 */
@Configuration(proxyBeanMethods = false)
public class Plugins {

	/** The manifest that uses the plug-ins. */
	public static final String MANIFEST = "degradation.manifest=classpath:contract/plugins.yaml";

	@Bean
	NoticeKind noticeKind() {
		return new NoticeKind();
	}

	@Bean
	StatusBoard statusBoard() {
		return new StatusBoard();
	}

	@Bean
	StatusBoard.Source statusBoardSource(StatusBoard board) {
		return new StatusBoard.Source(board, Clock.systemUTC());
	}

}
