package dev.baton.langchain4j;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.inject.Qualifier;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The qualifier every model bean of {@link BatonModelsExtension} carries beside its {@code @Named}.
 * It keeps those beans from being {@code @Default}, so an application's own unqualified
 * {@code ChatModel} never becomes ambiguous; {@code @Inject @Named("support") ChatModel} selects one
 * by name, {@code @Inject @Any @BatonModel Instance<ChatModel>} lists them all.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE})
public @interface BatonModel {

    final class Literal extends AnnotationLiteral<BatonModel> implements BatonModel {
        public static final Literal INSTANCE = new Literal();
        private static final long serialVersionUID = 1L;

        private Literal() {
        }
    }
}
