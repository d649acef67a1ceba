package dev.baton.impl.translate;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.baton.impl.translate.OpenAiRequestReading.optString;
import static dev.baton.impl.translate.OpenAiRequestReading.present;

/**
 * A chat-completions answer as an OpenAI Responses answer: the other half of {@link ResponsesRequests}. A whole
 * {@code chat.completion} becomes a {@code response} object ({@link #response}); a chat stream becomes the typed
 * events of a Responses stream ({@link Stream}), ending with the same {@code response} object the whole answer would
 * have given. The output item ids are made from the response id and the item's place in {@code output}, so both ways
 * name the items alike.
 */
public final class ResponsesWriting {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private ResponsesWriting() {
    }

    /** The {@code response} object of a {@code chat.completion}, with the request's settings echoed as OpenAI does. */
    public static JsonObject response(JsonObject completion, JsonObject request, String responseId, long createdAt) {
        JsonObject choice = firstChoice(completion);
        JsonObject message = choice != null && choice.get("message") instanceof JsonObject m
                ? m : JsonValue.EMPTY_JSON_OBJECT;
        List<Item> items = new ArrayList<>();
        String reasoning = reasoning(message);
        if (reasoning != null) {
            items.add(new Item(Kind.REASONING, responseId, items.size()).append(reasoning));
        }
        String text = nonEmpty(message, "content");
        String refusal = nonEmpty(message, "refusal");
        if (text != null || refusal != null) {
            Item reply = new Item(Kind.MESSAGE, responseId, items.size());
            if (text != null) {
                reply.parts.add(new Part(false).append(text));
            }
            if (refusal != null) {
                reply.parts.add(new Part(true).append(refusal));
            }
            items.add(reply);
        }
        if (message.get("tool_calls") instanceof JsonArray calls) {
            for (JsonValue value : calls) {
                if (value instanceof JsonObject call && call.get("function") instanceof JsonObject function) {
                    Item item = new Item(Kind.FUNCTION_CALL, responseId, items.size());
                    item.callId = optString(call, "id");
                    item.name = optString(function, "name");
                    item.append(optString(function, "arguments"));
                    items.add(item);
                }
            }
        }
        String finishReason = choice == null ? null : optString(choice, "finish_reason");
        for (Item item : items) {
            item.close(items.size() - 1 == item.index ? finishReason : null);
        }
        return finished(request, responseId, createdAt, model(completion, request), items, finishReason,
                completion.get("usage") instanceof JsonObject usage ? usage : null);
    }

    // ---- output items ----

    private enum Kind {
        REASONING("rs"), MESSAGE("msg"), FUNCTION_CALL("fc");

        final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    /** One output item as it grows: a reasoning summary, a message's parts, or a function call's arguments. */
    private static final class Item {
        final Kind kind;
        final String id;
        final int index;
        final StringBuilder text = new StringBuilder(); // the reasoning summary, or the function call's arguments
        final List<Part> parts = new ArrayList<>(); // a message's
        String callId;
        String name;
        String status; // null while in progress

        Item(Kind kind, String responseId, int index) {
            this.kind = kind;
            this.index = index;
            String suffix = responseId.startsWith("resp_") ? responseId.substring("resp_".length()) : responseId;
            this.id = kind.prefix + "_" + suffix + "_" + index;
        }

        Item append(String more) {
            if (more != null) {
                text.append(more);
            }
            return this;
        }

        /** Done: incomplete when the answer was cut short ({@code finishReason}) while this item was the last. */
        void close(String finishReason) {
            status = incompleteReason(finishReason) == null ? "completed" : "incomplete";
        }

        Part lastPart() {
            return parts.isEmpty() ? null : parts.get(parts.size() - 1);
        }

        /** As {@code output} holds it; while in progress as the {@code output_item.added} event shows it. */
        JsonObject json() {
            JsonObjectBuilder json = JSON.createObjectBuilder().add("id", id);
            switch (kind) {
                case REASONING -> {
                    // Baton's reasoning is the model's own text, not OpenAI's encrypted state: written as a summary.
                    JsonArrayBuilder summary = JSON.createArrayBuilder();
                    if (status != null) {
                        summary.add(summaryPart(text.toString()));
                    }
                    json.add("type", "reasoning").add("summary", summary);
                }
                case MESSAGE -> {
                    JsonArrayBuilder content = JSON.createArrayBuilder();
                    if (status != null) {
                        parts.forEach(part -> content.add(part.json()));
                    }
                    json.add("type", "message").add("status", status == null ? "in_progress" : status)
                            .add("role", "assistant").add("content", content);
                }
                case FUNCTION_CALL -> json.add("type", "function_call")
                        .add("status", status == null ? "in_progress" : status)
                        .add("arguments", status == null ? "" : text.toString())
                        .add("call_id", callId == null ? id : callId)
                        .add("name", name == null ? "" : name);
            }
            return json.build();
        }
    }

    /** A message's content part: its text, or a refusal. */
    private static final class Part {
        final boolean refusal;
        final StringBuilder text = new StringBuilder();

        Part(boolean refusal) {
            this.refusal = refusal;
        }

        Part append(String more) {
            text.append(more);
            return this;
        }

        JsonObject json() {
            return refusal
                    ? JSON.createObjectBuilder().add("type", "refusal").add("refusal", text.toString()).build()
                    : JSON.createObjectBuilder().add("type", "output_text").add("text", text.toString())
                    .add("annotations", JsonValue.EMPTY_JSON_ARRAY).build();
        }
    }

    private static JsonObject summaryPart(String text) {
        return JSON.createObjectBuilder().add("type", "summary_text").add("text", text).build();
    }

    // ---- the response object ----

    /** Why an answer with this chat finish reason is incomplete, as Responses says it; null when it is complete. */
    private static String incompleteReason(String finishReason) {
        if ("length".equals(finishReason)) {
            return "max_output_tokens";
        }
        return "content_filter".equals(finishReason) ? "content_filter" : null;
    }

    private static JsonObject finished(JsonObject request, String responseId, long createdAt, String model,
            List<Item> items, String finishReason, JsonObject chatUsage) {
        String incomplete = incompleteReason(finishReason);
        JsonArrayBuilder output = JSON.createArrayBuilder();
        items.forEach(item -> output.add(item.json()));
        return responseObject(request, responseId, createdAt, incomplete == null ? "completed" : "incomplete",
                incomplete == null ? JsonValue.NULL
                        : JSON.createObjectBuilder().add("reason", incomplete).build(),
                model, output.build(), chatUsage == null ? JsonValue.NULL : usage(chatUsage));
    }

    /**
     * A {@code response} object. Beside the answer it echoes the request's settings, with OpenAI's defaults for those
     * not sent; every member the official SDKs require is there, {@code null} when there is nothing to say.
     */
    private static JsonObject responseObject(JsonObject request, String responseId, long createdAt, String status,
            JsonValue incompleteDetails, String model, JsonArray output, JsonValue usage) {
        JsonObject text = request.get("text") instanceof JsonObject t ? t : JsonValue.EMPTY_JSON_OBJECT;
        if (!present(text, "format")) {
            text = JSON.createObjectBuilder(text)
                    .add("format", JSON.createObjectBuilder().add("type", "text")).build();
        }
        return JSON.createObjectBuilder()
                .add("id", responseId)
                .add("object", "response")
                .add("created_at", createdAt)
                .add("status", status)
                .add("error", JsonValue.NULL)
                .add("incomplete_details", incompleteDetails)
                .add("instructions", echo(request, "instructions", JsonValue.NULL))
                .add("max_output_tokens", echo(request, "max_output_tokens", JsonValue.NULL))
                .add("model", model)
                .add("output", output)
                .add("parallel_tool_calls", echo(request, "parallel_tool_calls", JsonValue.TRUE))
                .add("temperature", echo(request, "temperature", JSON.createValue(1.0)))
                .add("text", text)
                .add("tool_choice", echo(request, "tool_choice", JSON.createValue("auto")))
                .add("tools", echo(request, "tools", JsonValue.EMPTY_JSON_ARRAY))
                .add("top_p", echo(request, "top_p", JSON.createValue(1.0)))
                .add("usage", usage)
                .add("metadata", echo(request, "metadata", JsonValue.EMPTY_JSON_OBJECT))
                // Required (nullable) by the official SDK's model; Baton has no access programs to report.
                .add("access_programs", JsonValue.NULL)
                .build();
    }

    private static JsonValue echo(JsonObject request, String field, JsonValue otherwise) {
        return present(request, field) ? request.get(field) : otherwise;
    }

    private static String model(JsonObject answer, JsonObject request) {
        String model = optString(answer, "model");
        if (model == null) {
            model = optString(request, "model");
        }
        return model == null ? "" : model;
    }

    /**
     * Chat usage as Responses usage. Baton's cost estimate, when the engine put it in the chat usage, is kept beside
     * the counts.
     */
    private static JsonObject usage(JsonObject chat) {
        long input = count(chat, "prompt_tokens");
        long output = count(chat, "completion_tokens");
        JsonObject promptDetails = chat.get("prompt_tokens_details") instanceof JsonObject d
                ? d : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject completionDetails = chat.get("completion_tokens_details") instanceof JsonObject d
                ? d : JsonValue.EMPTY_JSON_OBJECT;
        JsonObjectBuilder usage = JSON.createObjectBuilder()
                .add("input_tokens", input)
                .add("input_tokens_details", JSON.createObjectBuilder()
                        .add("cached_tokens", count(promptDetails, "cached_tokens"))
                        // required by the SDK; chat answers count cache writes as plain prompt tokens
                        .add("cache_write_tokens", count(promptDetails, "cache_write_tokens")))
                .add("output_tokens", output)
                .add("output_tokens_details", JSON.createObjectBuilder()
                        .add("reasoning_tokens", count(completionDetails, "reasoning_tokens")))
                .add("total_tokens", chat.get("total_tokens") instanceof JsonNumber total
                        ? total.longValue() : input + output);
        for (String field : List.of("cost", "price_source", "cost_currency")) {
            if (chat.containsKey(field)) {
                usage.add(field, chat.get(field));
            }
        }
        return usage.build();
    }

    private static long count(JsonObject object, String field) {
        return object.get(field) instanceof JsonNumber n ? n.longValue() : 0;
    }

    // ---- reading chat ----

    /** The choice of index 0, else the first; null when there is none (a stream's usage chunk). */
    private static JsonObject firstChoice(JsonObject answer) {
        if (!(answer.get("choices") instanceof JsonArray choices) || choices.isEmpty()) {
            return null;
        }
        for (JsonValue choice : choices) {
            if (choice instanceof JsonObject c && c.get("index") instanceof JsonNumber i && i.intValue() == 0) {
                return c;
            }
        }
        return choices.get(0) instanceof JsonObject c ? c : null;
    }

    /** {@code reasoning_content} (as Baton's adapters write it), else {@code reasoning}; null when empty. */
    private static String reasoning(JsonObject messageOrDelta) {
        String reasoning = nonEmpty(messageOrDelta, "reasoning_content");
        return reasoning != null ? reasoning : nonEmpty(messageOrDelta, "reasoning");
    }

    private static String nonEmpty(JsonObject object, String field) {
        return object.get(field) instanceof JsonString s && !s.getString().isEmpty() ? s.getString() : null;
    }

    // ---- streaming ----

    /**
     * One chat stream as a Responses stream. Not thread-safe: a stream's chunks come one at a time. Each item is
     * streamed in the order its first delta comes: reasoning, text and refusals go into a reasoning item and a
     * message item, closed when another kind of output begins; each tool call ({@code tool_calls[].index}) becomes a
     * function call item, kept open until the finish reason, as a provider may interleave the deltas of parallel calls.
     * Output of a kind already closed (text after a tool call, reasoning after text) opens a new item, where the whole
     * answer would have one: the only case where the stream's items differ from those {@link ResponsesWriting#response}
     * makes of the same answer. A failed chat stream is not this class's: the caller ends the stream as it fails.
     */
    public static final class Stream {

        private final String responseId;
        private final JsonObject request;
        private final long createdAt;
        private final List<Item> items = new ArrayList<>();
        private final Map<String, Item> calls = new HashMap<>();
        private final List<Item> openCalls = new ArrayList<>();
        private Item reasoning; // open, else null
        private Item message; // open, else null
        private Item lastCall;
        private long sequence;
        private boolean started;
        private String model;
        private String finishReason;
        private JsonObject usage;

        public Stream(String responseId, JsonObject request, long createdAt) {
            this.responseId = responseId;
            this.request = request;
            this.createdAt = createdAt;
        }

        /** The events of one chat chunk; the first call also opens the stream. */
        public List<JsonObject> onChunk(JsonObject chunk) {
            List<JsonObject> events = new ArrayList<>();
            if (model == null) {
                model = optString(chunk, "model");
            }
            start(events);
            if (chunk.get("usage") instanceof JsonObject u) {
                usage = u;
            }
            JsonObject choice = firstChoice(chunk);
            if (choice == null) {
                return events;
            }
            if (choice.get("delta") instanceof JsonObject delta) {
                String thought = reasoning(delta);
                if (thought != null) {
                    reasoningDelta(thought, events);
                }
                String text = nonEmpty(delta, "content");
                if (text != null) {
                    messageDelta(false, text, events);
                }
                String refusal = nonEmpty(delta, "refusal");
                if (refusal != null) {
                    messageDelta(true, refusal, events);
                }
                if (delta.get("tool_calls") instanceof JsonArray toolCalls) {
                    for (JsonValue call : toolCalls) {
                        if (call instanceof JsonObject c) {
                            toolCallDelta(c, events);
                        }
                    }
                }
            }
            String reason = optString(choice, "finish_reason");
            if (reason != null) {
                finishReason = reason;
                closeAll(events);
            }
            return events;
        }

        /** The events that end the stream once the chat stream completed: {@code response.completed} or incomplete. */
        public List<JsonObject> finish() {
            List<JsonObject> events = new ArrayList<>();
            start(events);
            closeAll(events);
            JsonObject response = finished(request, responseId, createdAt, model(), items, finishReason, usage);
            String type = "completed".equals(response.getString("status")) ? "response.completed"
                    : "response.incomplete";
            events.add(event(type).add("response", response).build());
            return events;
        }

        private String model() {
            return model != null ? model : ResponsesWriting.model(JsonValue.EMPTY_JSON_OBJECT, request);
        }

        private void start(List<JsonObject> events) {
            if (started) {
                return;
            }
            started = true;
            JsonObject response = responseObject(request, responseId, createdAt, "in_progress", JsonValue.NULL,
                    model(), JsonValue.EMPTY_JSON_ARRAY, JsonValue.NULL);
            events.add(event("response.created").add("response", response).build());
            events.add(event("response.in_progress").add("response", response).build());
        }

        private JsonObjectBuilder event(String type) {
            return JSON.createObjectBuilder().add("type", type).add("sequence_number", sequence++);
        }

        private JsonObjectBuilder itemEvent(String type, Item item) {
            return event(type).add("item_id", item.id).add("output_index", item.index);
        }

        private Item open(Kind kind, List<JsonObject> events) {
            Item item = new Item(kind, responseId, items.size());
            items.add(item);
            events.add(event("response.output_item.added").add("output_index", item.index)
                    .add("item", item.json()).build());
            return item;
        }

        private void reasoningDelta(String delta, List<JsonObject> events) {
            if (reasoning == null) {
                closeMessage(events);
                reasoning = open(Kind.REASONING, events);
                events.add(itemEvent("response.reasoning_summary_part.added", reasoning).add("summary_index", 0)
                        .add("part", summaryPart("")).build());
            }
            reasoning.append(delta);
            events.add(itemEvent("response.reasoning_summary_text.delta", reasoning).add("summary_index", 0)
                    .add("delta", delta).build());
        }

        private void messageDelta(boolean refusal, String delta, List<JsonObject> events) {
            if (message == null) {
                closeReasoning(events);
                message = open(Kind.MESSAGE, events);
            }
            Part part = message.lastPart();
            if (part == null || part.refusal != refusal) {
                closePart(events);
                part = new Part(refusal);
                message.parts.add(part);
                events.add(partEvent("response.content_part.added").add("part", part.json()).build());
            }
            part.append(delta);
            JsonObjectBuilder event = partEvent(refusal ? "response.refusal.delta" : "response.output_text.delta")
                    .add("delta", delta);
            events.add(refusal ? event.build() : event.add("logprobs", JsonValue.EMPTY_JSON_ARRAY).build());
        }

        private JsonObjectBuilder partEvent(String type) {
            return itemEvent(type, message).add("content_index", message.parts.size() - 1);
        }

        private void toolCallDelta(JsonObject delta, List<JsonObject> events) {
            String id = optString(delta, "id");
            // Some OpenAI-compatible hosts leave the index out: then a new id is a new call, no id the last one.
            String key = delta.get("index") instanceof JsonNumber i ? "index " + i
                    : id != null ? "id " + id : null;
            Item call = key != null ? calls.get(key) : lastCall;
            JsonObject function = delta.get("function") instanceof JsonObject f ? f : JsonValue.EMPTY_JSON_OBJECT;
            if (call == null) {
                closeReasoning(events);
                closeMessage(events);
                call = new Item(Kind.FUNCTION_CALL, responseId, items.size());
                call.callId = id;
                call.name = optString(function, "name");
                items.add(call);
                openCalls.add(call);
                calls.put(key != null ? key : "index 0", call);
                events.add(event("response.output_item.added").add("output_index", call.index)
                        .add("item", call.json()).build());
            }
            lastCall = call;
            String arguments = nonEmpty(function, "arguments");
            if (arguments != null) {
                call.append(arguments);
                events.add(itemEvent("response.function_call_arguments.delta", call).add("delta", arguments).build());
            }
        }

        private void closePart(List<JsonObject> events) {
            Part part = message.lastPart();
            if (part == null) {
                return;
            }
            JsonObjectBuilder done = part.refusal
                    ? partEvent("response.refusal.done").add("refusal", part.text.toString())
                    : partEvent("response.output_text.done").add("text", part.text.toString())
                    .add("logprobs", JsonValue.EMPTY_JSON_ARRAY);
            events.add(done.build());
            events.add(partEvent("response.content_part.done").add("part", part.json()).build());
        }

        private void closeMessage(List<JsonObject> events) {
            if (message != null) {
                closePart(events);
                closeItem(message, events);
                message = null;
            }
        }

        private void closeReasoning(List<JsonObject> events) {
            if (reasoning != null) {
                String text = reasoning.text.toString();
                events.add(itemEvent("response.reasoning_summary_text.done", reasoning).add("summary_index", 0)
                        .add("text", text).build());
                events.add(itemEvent("response.reasoning_summary_part.done", reasoning).add("summary_index", 0)
                        .add("part", summaryPart(text)).build());
                closeItem(reasoning, events);
                reasoning = null;
            }
        }

        /** Closes every open item, in output order; the last item of all carries an incomplete answer's status. */
        private void closeAll(List<JsonObject> events) {
            List<Item> open = new ArrayList<>(openCalls);
            if (reasoning != null) {
                open.add(reasoning);
            }
            if (message != null) {
                open.add(message);
            }
            open.sort((a, b) -> Integer.compare(a.index, b.index));
            for (Item item : open) {
                if (item == reasoning) {
                    closeReasoning(events);
                } else if (item == message) {
                    closeMessage(events);
                } else {
                    events.add(itemEvent("response.function_call_arguments.done", item)
                            .add("arguments", item.text.toString()).build());
                    closeItem(item, events);
                }
            }
            openCalls.clear();
            calls.clear();
            lastCall = null;
        }

        private void closeItem(Item item, List<JsonObject> events) {
            item.close(item.index == items.size() - 1 ? finishReason : null);
            events.add(event("response.output_item.done").add("output_index", item.index).add("item", item.json())
                    .build());
        }
    }
}
