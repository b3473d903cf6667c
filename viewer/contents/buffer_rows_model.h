// A buffer's bytes as rows of typed 32-bit elements: a row per structure of
// a structured buffer, else per 16 bytes; its offset first, then each word
// as float, uint, int or hex, as the user picks. Values are made when a
// row is shown, so a buffer of millions of rows costs no more than its bytes.
#pragma once

#include <QAbstractTableModel>
#include <cstdint>
#include <memory>

#include "viewer/contents/contents_image.h"

namespace d3dcap::viewer {

class BufferRowsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum class Element { Float, Uint, Int, Hex };
    static QStringList element_names();  // "float", "uint", "int", "hex"

    explicit BufferRowsModel(QObject* parent = nullptr);

    // Shows the bytes of a buffer's contents; anything else empties it.
    void set_contents(std::shared_ptr<const DecodedContents> contents);
    void set_element(Element element);
    // Bytes a row shows: the structure stride, else 16.
    std::uint32_t row_bytes() const { return row_bytes_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<const DecodedContents> contents_;
    Element element_ = Element::Float;
    std::uint32_t row_bytes_ = 16;
};

}  // namespace d3dcap::viewer
