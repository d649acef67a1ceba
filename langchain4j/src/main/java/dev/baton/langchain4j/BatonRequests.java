package dev.baton.langchain4j;

import dev.baton.ChatRequest;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.audio.Audio;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.pdf.PdfFile;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A LangChain4j chat request as Baton's: the OpenAI chat-completions body that every Baton adapter
 * reads (Anthropic and Azure targets translate it further). A pure function; the table it follows is
 * in {@code docs/langchain4j.md}. What Baton cannot carry is refused with LangChain4j's
 * {@link UnsupportedFeatureException} before anything is sent, never dropped silently.
 */
final class BatonRequests {

    private static final JsonProvider JSON = JsonProvider.provider();

    private BatonRequests() {
    }

    /**
     * @param route  the route the model is bound to; a request naming it (or nothing) is sent to it
     * @param stream whether the body asks for a stream (with usage in the last chunk)
     */
    static ChatRequest toBaton(dev.langchain4j.model.chat.request.ChatRequest request, String route, boolean stream) {
        JsonObjectBuilder body = JSON.createObjectBuilder();
        ChatRequestParameters p = request.parameters();
        // The bound service accepts its own route and refuses any other name, with a message that says so.
        body.add("model", p.modelName() == null ? route : p.modelName());
        JsonArrayBuilder messages = JSON.createArrayBuilder();
        List<ChatMessage> chat = request.messages();
        for (int i = 0; i < chat.size(); i++) {
            messages.add(message(chat.get(i), "messages[" + i + "]"));
        }
        body.add("messages", messages);
        parameters(p, body);
        if (stream) {
            body.add("stream", true);
            body.add("stream_options", JSON.createObjectBuilder().add("include_usage", true));
        }
        return ChatRequest.fromJson(body.build());
    }

    private static void parameters(ChatRequestParameters p, JsonObjectBuilder body) {
        if (p.temperature() != null) {
            body.add("temperature", p.temperature());
        }
        if (p.topP() != null) {
            body.add("top_p", p.topP());
        }
        if (p.topK() != null) {
            throw new UnsupportedFeatureException("topK is not supported: Baton sends the OpenAI chat-completions "
                    + "parameters, which have no top_k");
        }
        if (p.frequencyPenalty() != null) {
            body.add("frequency_penalty", p.frequencyPenalty());
        }
        if (p.presencePenalty() != null) {
            body.add("presence_penalty", p.presencePenalty());
        }
        if (p.maxOutputTokens() != null) {
            body.add("max_completion_tokens", p.maxOutputTokens());
        }
        if (p.stopSequences() != null && !p.stopSequences().isEmpty()) {
            body.add("stop", strings(p.stopSequences()));
        }
        List<ToolSpecification> tools = p.toolSpecifications();
        if (tools != null && !tools.isEmpty()) {
            JsonArrayBuilder array = JSON.createArrayBuilder();
            tools.forEach(t -> array.add(tool(t)));
            body.add("tools", array);
        }
        if (p.toolChoice() != null) {
            body.add("tool_choice", toolChoice(p.toolChoice()));
        }
        if (p.responseFormat() != null) {
            body.add("response_format", responseFormat(p.responseFormat()));
        }
    }

    static JsonObject message(ChatMessage message, String path) {
        if (message instanceof SystemMessage m) {
            return JSON.createObjectBuilder().add("role", "system").add("content", m.text()).build();
        }
        if (message instanceof UserMessage m) {
            JsonObjectBuilder user = JSON.createObjectBuilder().add("role", "user");
            if (m.hasSingleText()) {
                user.add("content", m.singleText());
            } else {
                JsonArrayBuilder parts = JSON.createArrayBuilder();
                List<Content> contents = m.contents();
                for (int j = 0; j < contents.size(); j++) {
                    parts.add(part(contents.get(j), path + ".contents[" + j + "]"));
                }
                user.add("content", parts);
            }
            if (m.name() != null) {
                user.add("name", m.name());
            }
            return user.build();
        }
        if (message instanceof AiMessage m) {
            JsonObjectBuilder assistant = JSON.createObjectBuilder().add("role", "assistant");
            assistant.add("content", m.text() == null ? JsonValue.NULL : JSON.createValue(m.text()));
            if (m.hasToolExecutionRequests()) {
                JsonArrayBuilder calls = JSON.createArrayBuilder();
                for (ToolExecutionRequest call : m.toolExecutionRequests()) {
                    calls.add(JSON.createObjectBuilder()
                            .add("id", call.id() == null ? "" : call.id())
                            .add("type", "function")
                            .add("function", JSON.createObjectBuilder()
                                    .add("name", call.name())
                                    .add("arguments", call.arguments() == null ? "{}" : call.arguments())));
                }
                assistant.add("tool_calls", calls);
            }
            return assistant.build();
        }
        if (message instanceof ToolExecutionResultMessage m) {
            if (m.id() == null) {
                throw new UnsupportedFeatureException(path + ": a tool result without the id of its tool call");
            }
            return JSON.createObjectBuilder().add("role", "tool").add("tool_call_id", m.id())
                    .add("content", m.text() == null ? "" : m.text()).build();
        }
        if (message instanceof CustomMessage m) {
            // A message LangChain4j has no type for: its attributes are the chat-completions message.
            JsonValue custom = value(m.attributes(), path);
            if (!(custom instanceof JsonObject object) || !(object.get("role") instanceof jakarta.json.JsonString)) {
                throw new UnsupportedFeatureException(path + ": a CustomMessage must have a string attribute `role`");
            }
            return object;
        }
        throw new UnsupportedFeatureException(path + ": " + message.type() + " messages are not supported");
    }

    private static JsonObject part(Content content, String path) {
        if (content instanceof TextContent t) {
            return JSON.createObjectBuilder().add("type", "text").add("text", t.text()).build();
        }
        if (content instanceof ImageContent i) {
            JsonObjectBuilder url = JSON.createObjectBuilder().add("url", imageUrl(i.image(), path));
            if (i.detailLevel() != null) {
                url.add("detail", switch (i.detailLevel()) {
                    case LOW -> "low";
                    case HIGH, ULTRA_HIGH -> "high";
                    default -> "auto";
                });
            }
            return JSON.createObjectBuilder().add("type", "image_url").add("image_url", url).build();
        }
        if (content instanceof AudioContent a) {
            Audio audio = a.audio();
            if (audio.base64Data() == null) {
                throw new UnsupportedFeatureException(path + ": audio must be inline (base64); Baton fetches no URL");
            }
            return JSON.createObjectBuilder().add("type", "input_audio").add("input_audio", JSON.createObjectBuilder()
                    .add("data", audio.base64Data()).add("format", audioFormat(audio.mimeType(), path))).build();
        }
        if (content instanceof PdfFileContent f) {
            PdfFile pdf = f.pdfFile();
            if (pdf.base64Data() == null) {
                throw new UnsupportedFeatureException(path + ": a PDF must be inline (base64); Baton fetches no URL");
            }
            String mime = pdf.mimeType() == null ? "application/pdf" : pdf.mimeType();
            return JSON.createObjectBuilder().add("type", "file").add("file", JSON.createObjectBuilder()
                    .add("filename", "document.pdf")
                    .add("file_data", "data:" + mime + ";base64," + pdf.base64Data())).build();
        }
        throw new UnsupportedFeatureException(path + ": " + content.type() + " content is not supported");
    }

    private static String imageUrl(Image image, String path) {
        if (image.url() != null) {
            return image.url().toString();
        }
        if (image.base64Data() != null) {
            if (image.mimeType() == null) {
                throw new UnsupportedFeatureException(path + ": a base64 image needs its MIME type");
            }
            return "data:" + image.mimeType() + ";base64," + image.base64Data();
        }
        throw new UnsupportedFeatureException(path + ": an image needs a URL or base64 data");
    }

    private static String audioFormat(String mimeType, String path) {
        String mime = mimeType == null ? "" : mimeType.toLowerCase(Locale.ROOT);
        if (mime.endsWith("/wav") || mime.endsWith("/x-wav") || mime.endsWith("/wave")) {
            return "wav";
        }
        if (mime.endsWith("/mp3") || mime.endsWith("/mpeg")) {
            return "mp3";
        }
        throw new UnsupportedFeatureException(path + ": audio must be audio/wav or audio/mpeg, not `" + mimeType + "`");
    }

    static JsonObject tool(ToolSpecification tool) {
        JsonObjectBuilder function = JSON.createObjectBuilder().add("name", tool.name());
        if (tool.description() != null) {
            function.add("description", tool.description());
        }
        function.add("parameters", tool.parameters() == null
                ? JSON.createObjectBuilder().add("type", "object").add("properties", JsonValue.EMPTY_JSON_OBJECT).build()
                : schema(tool.parameters()));
        if (tool.strict() != null) {
            function.add("strict", tool.strict());
        }
        return JSON.createObjectBuilder().add("type", "function").add("function", function).build();
    }

    private static String toolChoice(ToolChoice choice) {
        return switch (choice) {
            case AUTO -> "auto";
            case REQUIRED -> "required";
            case NONE -> "none";
        };
    }

    static JsonObject responseFormat(ResponseFormat format) {
        if (format.type() == ResponseFormatType.TEXT) {
            return JSON.createObjectBuilder().add("type", "text").build();
        }
        JsonSchema schema = format.jsonSchema();
        if (schema == null) {
            return JSON.createObjectBuilder().add("type", "json_object").build();
        }
        return JSON.createObjectBuilder().add("type", "json_schema").add("json_schema", JSON.createObjectBuilder()
                .add("name", schema.name() == null ? "response" : schema.name())
                .add("strict", true)
                .add("schema", schema(schema.rootElement()))).build();
    }

    /** A LangChain4j JSON schema element as JSON Schema, as OpenAI's {@code parameters} and {@code json_schema} take it. */
    static JsonObject schema(JsonSchemaElement element) {
        JsonObjectBuilder s = JSON.createObjectBuilder();
        if (element instanceof JsonObjectSchema o) {
            s.add("type", "object");
            describe(s, o.description());
            JsonObjectBuilder properties = JSON.createObjectBuilder();
            o.properties().forEach((name, value) -> properties.add(name, schema(value)));
            s.add("properties", properties);
            if (o.required() != null && !o.required().isEmpty()) {
                s.add("required", strings(o.required()));
            }
            if (o.additionalProperties() != null) {
                s.add("additionalProperties", o.additionalProperties());
            }
            if (o.definitions() != null && !o.definitions().isEmpty()) {
                JsonObjectBuilder defs = JSON.createObjectBuilder();
                o.definitions().forEach((name, value) -> defs.add(name, schema(value)));
                s.add("$defs", defs);
            }
        } else if (element instanceof JsonStringSchema e) {
            describe(s.add("type", "string"), e.description());
        } else if (element instanceof JsonIntegerSchema e) {
            describe(s.add("type", "integer"), e.description());
        } else if (element instanceof JsonNumberSchema e) {
            describe(s.add("type", "number"), e.description());
        } else if (element instanceof JsonBooleanSchema e) {
            describe(s.add("type", "boolean"), e.description());
        } else if (element instanceof JsonNullSchema) {
            s.add("type", "null");
        } else if (element instanceof JsonEnumSchema e) {
            describe(s.add("type", "string"), e.description());
            s.add("enum", strings(e.enumValues()));
        } else if (element instanceof JsonArraySchema e) {
            describe(s.add("type", "array"), e.description());
            if (e.items() != null) {
                s.add("items", schema(e.items()));
            }
        } else if (element instanceof JsonReferenceSchema e) {
            s.add("$ref", "#/$defs/" + e.reference());
        } else if (element instanceof JsonAnyOfSchema e) {
            describe(s, e.description());
            JsonArrayBuilder anyOf = JSON.createArrayBuilder();
            e.anyOf().forEach(option -> anyOf.add(schema(option)));
            s.add("anyOf", anyOf);
        } else if (element instanceof JsonRawSchema e) {
            try (var reader = JSON.createReader(new StringReader(e.schema()))) {
                return reader.readObject();
            } catch (JsonException | IllegalStateException bad) {
                throw new UnsupportedFeatureException("a JsonRawSchema that is not a JSON object");
            }
        } else {
            throw new UnsupportedFeatureException("JSON schema element " + element.getClass().getSimpleName()
                    + " is not supported");
        }
        return s.build();
    }

    private static JsonObjectBuilder describe(JsonObjectBuilder s, String description) {
        return description == null ? s : s.add("description", description);
    }

    private static JsonArrayBuilder strings(Collection<String> values) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        values.forEach(array::add);
        return array;
    }

    /** A CustomMessage's attribute value as JSON: strings, numbers, booleans, maps and lists of them. */
    private static JsonValue value(Object value, String path) {
        if (value == null) {
            return JsonValue.NULL;
        }
        if (value instanceof String s) {
            return JSON.createValue(s);
        }
        if (value instanceof Boolean b) {
            return b ? JsonValue.TRUE : JsonValue.FALSE;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return JSON.createValue(((Number) value).longValue());
        }
        if (value instanceof Number n) {
            return JSON.createValue(n.doubleValue());
        }
        if (value instanceof Map<?, ?> map) {
            JsonObjectBuilder object = JSON.createObjectBuilder();
            map.forEach((k, v) -> object.add(String.valueOf(k), value(v, path + "." + k)));
            return object.build();
        }
        if (value instanceof Collection<?> list) {
            JsonArrayBuilder array = JSON.createArrayBuilder();
            list.forEach(v -> array.add(value(v, path)));
            return array.build();
        }
        throw new UnsupportedFeatureException(path + ": a " + value.getClass().getSimpleName()
                + " attribute cannot be sent as JSON");
    }
}
