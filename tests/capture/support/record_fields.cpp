#include "capture/support/record_fields.h"

#include <flatbuffers/reflection.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

#include "format/trace/reader.h"

namespace d3dcap::testing {

namespace {

using reflection::BaseType;

// The fields of an object in the order the schema declares them (the
// binary schema keeps them sorted by name), deprecated ones left out.
std::vector<const reflection::Field*> declared_fields(const reflection::Object& object) {
    std::vector<const reflection::Field*> fields;
    for (const reflection::Field* field : *object.fields())
        if (!field->deprecated()) fields.push_back(field);
    std::sort(fields.begin(), fields.end(),
              [](const auto* a, const auto* b) { return a->id() < b->id(); });
    return fields;
}

const reflection::Field& field_named(const reflection::Object& object, const char* name) {
    const reflection::Field* field = object.fields()->LookupByKey(name);
    if (field == nullptr) throw std::runtime_error(object.name()->str() + " has no field " + name);
    return *field;
}

std::string scalar_text(BaseType type, const std::uint8_t* data) {
    using flatbuffers::ReadScalar;
    switch (type) {
        case BaseType::Bool:
        case BaseType::UType:
        case BaseType::UByte:
            return number_text(ReadScalar<std::uint8_t>(data));
        case BaseType::Byte:
            return number_text(ReadScalar<std::int8_t>(data));
        case BaseType::Short:
            return number_text(ReadScalar<std::int16_t>(data));
        case BaseType::UShort:
            return number_text(ReadScalar<std::uint16_t>(data));
        case BaseType::Int:
            return number_text(ReadScalar<std::int32_t>(data));
        case BaseType::UInt:
            return number_text(ReadScalar<std::uint32_t>(data));
        case BaseType::Long:
            return number_text(ReadScalar<std::int64_t>(data));
        case BaseType::ULong:
            return number_text(ReadScalar<std::uint64_t>(data));
        case BaseType::Float:
            return number_text(ReadScalar<float>(data));
        case BaseType::Double:
            return number_text(ReadScalar<double>(data));
        default:
            throw std::runtime_error("not a scalar type");
    }
}

std::string default_text(const reflection::Field& field) {
    const BaseType type = field.type()->base_type();
    if (flatbuffers::IsFloat(type)) return float_text(field.default_real());
    if (type == BaseType::ULong)
        return number_text(static_cast<std::uint64_t>(field.default_integer()));
    return number_text(field.default_integer());
}

class Reader {
  public:
    explicit Reader(const reflection::Schema& schema) : schema_(schema) {}

    std::string table_text(const reflection::Object& object,
                           const flatbuffers::Table& table) const {
        std::string text = "{";
        for (const reflection::Field* field : declared_fields(object)) {
            if (field->type()->base_type() == BaseType::UType) continue;
            if (text.size() > 1) text += ',';
            text += field->name()->str() + "=" + field_text(*field, table);
        }
        return text + "}";
    }

    std::string field_text(const reflection::Field& field, const flatbuffers::Table& table) const {
        const reflection::Type& type = *field.type();
        const BaseType base = type.base_type();
        if (flatbuffers::IsScalar(base)) {
            const std::uint8_t* data = table.GetAddressOf(field.offset());
            return data != nullptr ? scalar_text(base, data) : default_text(field);
        }
        if (!table.CheckField(field.offset())) return "null";
        switch (base) {
            case BaseType::String:
                return string_text(flatbuffers::GetFieldS(table, field)->string_view());
            case BaseType::Vector:
                return vector_text(type, *flatbuffers::GetFieldAnyV(table, field));
            case BaseType::Obj: {
                const reflection::Object& object = *schema_.objects()->Get(type.index());
                if (object.is_struct())
                    return struct_text(object, table.GetAddressOf(field.offset()));
                return table_text(object, *flatbuffers::GetFieldT(table, field));
            }
            default:
                throw std::runtime_error("field " + field.name()->str() + ": no text rule");
        }
    }

    std::string vector_text(const reflection::Type& type,
                            const flatbuffers::VectorOfAny& vector) const {
        const BaseType element = type.element();
        std::string text = "[";
        for (flatbuffers::uoffset_t i = 0; i < vector.size(); ++i) {
            if (i != 0) text += ',';
            if (flatbuffers::IsScalar(element)) {
                text += scalar_text(element, vector.Data() + flatbuffers::GetTypeSize(element) * i);
            } else if (element == BaseType::String) {
                text += string_text(
                    flatbuffers::GetAnyVectorElemPointer<const flatbuffers::String>(&vector, i)
                        ->string_view());
            } else if (element == BaseType::Obj) {
                const reflection::Object& object = *schema_.objects()->Get(type.index());
                if (object.is_struct())
                    text += struct_text(object, vector.Data() + object.bytesize() * i);
                else
                    text += table_text(
                        object, *flatbuffers::GetAnyVectorElemPointer<const flatbuffers::Table>(
                                    &vector, i));
            } else {
                throw std::runtime_error("a vector of no text rule");
            }
        }
        return text + "]";
    }

    std::string struct_text(const reflection::Object& object, const std::uint8_t* data) const {
        std::string text = "{";
        for (const reflection::Field* field : declared_fields(object)) {
            if (text.size() > 1) text += ',';
            text +=
                field->name()->str() + "=" + inline_text(*field->type(), data + field->offset());
        }
        return text + "}";
    }

    // A value stored in place: a scalar, a struct, or a struct's fixed array.
    std::string inline_text(const reflection::Type& type, const std::uint8_t* data) const {
        const BaseType base = type.base_type();
        if (flatbuffers::IsScalar(base)) return scalar_text(base, data);
        if (base == BaseType::Obj) return struct_text(*schema_.objects()->Get(type.index()), data);
        if (base != BaseType::Array) throw std::runtime_error("a struct member of no text rule");
        const BaseType element = type.element();
        const std::size_t size = element == BaseType::Obj
                                     ? schema_.objects()->Get(type.index())->bytesize()
                                     : flatbuffers::GetTypeSize(element);
        std::string text = "[";
        for (std::uint16_t i = 0; i < type.fixed_length(); ++i) {
            if (i != 0) text += ',';
            text += element == BaseType::Obj
                        ? struct_text(*schema_.objects()->Get(type.index()), data + size * i)
                        : scalar_text(element, data + size * i);
        }
        return text + "]";
    }

  private:
    const reflection::Schema& schema_;
};

std::string short_name(const flatbuffers::String* name) {
    const std::string text = name->str();
    const auto dot = text.rfind('.');
    return dot == std::string::npos ? text : text.substr(dot + 1);
}

}  // namespace

RecordReflection::RecordReflection(const std::string& bfbs_path) {
    std::ifstream in(bfbs_path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + bfbs_path);
    bfbs_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    flatbuffers::Verifier verifier(bfbs_.data(), bfbs_.size());
    if (!reflection::VerifySchemaBuffer(verifier))
        throw std::runtime_error(bfbs_path + " is not a binary FlatBuffers schema");
    schema_ = reflection::GetSchema(bfbs_.data());
    record_ = schema_->root_table();
    if (record_ == nullptr || short_name(record_->name()) != "Record")
        throw std::runtime_error(bfbs_path + " is not the trace record schema");
}

ReflectedCall RecordReflection::call(const void* record) const {
    const auto& table = *static_cast<const flatbuffers::Table*>(record);
    ReflectedCall call;
    const reflection::Field& header_field = field_named(*record_, "header");
    const reflection::Object& header = *schema_->objects()->Get(header_field.type()->index());
    const std::uint8_t* header_data = table.GetAddressOf(header_field.offset());
    if (header_data != nullptr)
        call.context = flatbuffers::ReadScalar<std::uint64_t>(
            header_data + field_named(header, "context").offset());
    // A call is in one of the call unions; the Meta union holds no call.
    for (const reflection::Field* field : *record_->fields()) {
        if (field->type()->base_type() != BaseType::Union || !table.CheckField(field->offset()) ||
            short_name(schema_->enums()->Get(field->type()->index())->name()) == "Meta")
            continue;
        const reflection::Object& object =
            flatbuffers::GetUnionType(*schema_, *record_, *field, table);
        const flatbuffers::Table& parameters = *flatbuffers::GetFieldT(table, *field);
        call.table = short_name(object.name());
        const Reader reader(*schema_);
        for (const reflection::Field* parameter : declared_fields(object))
            call.fields.emplace_back(parameter->name()->str(),
                                     reader.field_text(*parameter, parameters));
    }
    return call;
}

std::vector<ReflectedCall> reflected_context_calls(const RecordReflection& reflection,
                                                   const std::string& trace_path,
                                                   std::uint64_t context) {
    auto reader = trace::TraceReader::open(trace_path);
    if (!reader.ok()) throw std::runtime_error(reader.error().to_string());
    std::vector<ReflectedCall> calls;
    for (std::uint64_t event = 0; event < reader.value()->event_count(); ++event) {
        auto record = reader.value()->record(event);
        if (!record.ok()) throw std::runtime_error(record.error().to_string());
        ReflectedCall call = reflection.call(record.value());
        if (call.context == context && call.table.starts_with("ID3D11DeviceContext"))
            calls.push_back(std::move(call));
    }
    return calls;
}

std::vector<std::string> field_differences(const std::string& call, const ExpectedFields& expected,
                                           const ReflectedCall& recorded) {
    std::vector<std::string> differences;
    if (recorded.table != call) {
        differences.push_back(call + ": recorded as " +
                              (recorded.table.empty() ? "no call" : recorded.table));
        return differences;
    }
    std::map<std::string, std::string> recorded_fields(recorded.fields.begin(),
                                                       recorded.fields.end());
    for (const ExpectedField& field : expected) {
        const auto it = recorded_fields.find(field.name);
        if (it == recorded_fields.end()) {
            differences.push_back(call + ": " + field.name + ": expected " + field.text +
                                  ", the schema has no such field");
            continue;
        }
        if (it->second != field.text)
            differences.push_back(call + ": " + field.name + ": expected " + field.text +
                                  ", recorded " + it->second);
        recorded_fields.erase(it);
    }
    for (const auto& [name, text] : recorded_fields)
        differences.push_back(call + ": " + name + ": recorded " + text + ", expected nothing");
    return differences;
}

}  // namespace d3dcap::testing
