package dev.baton.impl.cdi;

import dev.baton.FailoverPolicy;
import dev.baton.impl.config.PolicyOverride;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Makes a business method's (or its class's) {@code @FailoverPolicy} current while the method
 * runs on its thread. Its priority puts it inside MicroProfile Fault Tolerance's interceptor
 * (PLATFORM_AFTER + 10), so with {@code @Asynchronous} the policy is set on the thread that runs
 * the method, and every retry of a {@code @Retry} sees it.
 */
@FailoverPolicy
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER + 100)
public class FailoverPolicyInterceptor {

    @Inject
    BatonExtension extension;

    @AroundInvoke
    Object withPolicy(InvocationContext invocation) throws Exception {
        PolicyOverride policy = extension.policyFor(invocation.getMethod(), invocation.getTarget().getClass());
        PolicyOverride previous = PolicyScope.enter(policy);
        try {
            return invocation.proceed();
        } finally {
            PolicyScope.restore(previous);
        }
    }
}
