package dev.degradation.sample;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

import dev.degradation.sample.extras.AnalyticsCollector;
import dev.degradation.sample.extras.PersonalizationService;
import dev.degradation.sample.extras.RecommendationsApi;
import dev.degradation.sample.page.ProductReviews;
import dev.degradation.sample.shop.OrderBook;
import dev.degradation.sample.shop.ProductCatalog;
import dev.degradation.test.contract.DegradationContractTests;

/**
 * The same contract in a {@code @WebMvcTest} slice, through MockMvc, as a CI run would have it:
 * the dependencies' URLs point where nothing listens (so none is embedded), and the services the
 * controllers use are mocks. The contract stops its requests at the handlers' door, so the mocks
 * are never called and the unreachable dependencies shed nothing: probes are off.
 */
@WebMvcTest(properties = { "sample.dependencies.recommendations-api.url=http://127.0.0.1:9",
		"sample.dependencies.analytics-collector.url=http://127.0.0.1:9",
		"sample.dependencies.personalization-service.url=http://127.0.0.1:9" })
@MockitoBean(types = { AnalyticsCollector.class, PersonalizationService.class, RecommendationsApi.class,
		ProductCatalog.class, OrderBook.class, ProductReviews.class })
class ShopDegradationMockMvcContractTests extends DegradationContractTests {

}
