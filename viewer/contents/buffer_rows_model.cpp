#include "viewer/contents/buffer_rows_model.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace d3dcap::viewer {

namespace {

const std::vector<std::uint8_t>& bytes_of(const DecodedContents& contents) {
    return contents.contents.bytes;
}

}  // namespace

QStringList BufferRowsModel::element_names() {
    return {QStringLiteral("float"), QStringLiteral("uint"), QStringLiteral("int"),
            QStringLiteral("hex")};
}

BufferRowsModel::BufferRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void BufferRowsModel::set_contents(std::shared_ptr<const DecodedContents> contents) {
    beginResetModel();
    contents_ = contents && contents->contents.shape.buffer ? std::move(contents) : nullptr;
    const std::uint32_t stride = contents_ ? contents_->contents.shape.structure_stride : 0;
    // Structures of whole words show one a row; other buffers 16 bytes a row.
    row_bytes_ = stride >= 4 && stride % 4 == 0 && stride <= 2048 ? stride : 16;
    endResetModel();
}

void BufferRowsModel::set_element(Element element) {
    beginResetModel();
    element_ = element;
    endResetModel();
}

int BufferRowsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !contents_) return 0;
    const std::size_t rows = (bytes_of(*contents_).size() + row_bytes_ - 1) / row_bytes_;
    return static_cast<int>(std::min<std::size_t>(rows, std::numeric_limits<int>::max()));
}

int BufferRowsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !contents_ ? 0 : 1 + static_cast<int>(row_bytes_ / 4);
}

QVariant BufferRowsModel::data(const QModelIndex& index, int role) const {
    if (!contents_ || !index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const std::uint64_t row_offset = std::uint64_t(index.row()) * row_bytes_;
    if (index.column() == 0) return QStringLiteral("0x%1").arg(row_offset, 0, 16);
    const std::vector<std::uint8_t>& bytes = bytes_of(*contents_);
    const std::uint64_t offset = row_offset + std::uint64_t(index.column() - 1) * 4;
    if (offset + 4 > bytes.size()) return {};
    std::uint32_t word = 0;
    std::memcpy(&word, bytes.data() + offset, 4);
    switch (element_) {
        case Element::Float:
            return QString::number(double(std::bit_cast<float>(word)), 'g', 9);
        case Element::Uint:
            return QString::number(word);
        case Element::Int:
            return QString::number(std::bit_cast<std::int32_t>(word));
        case Element::Hex:
            return QStringLiteral("%1").arg(word, 8, 16, QLatin1Char('0'));
    }
    return {};
}

QVariant BufferRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    if (section == 0) return QStringLiteral("Offset");
    return QStringLiteral("+%1").arg((section - 1) * 4);
}

}  // namespace d3dcap::viewer
