"""IUnknown (declared by the platform headers) and ID3D11DeviceChild."""


def declare(api) -> None:
    api.interface("IUnknown", base=None, header="unknwn",
                  uuid="00000000-0000-0000-c000-000000000046", methods=[
        (1, "[hand_written=capture] "
            "HRESULT QueryInterface(REFIID riid, [out, iid=riid] void **ppvObject)"),
        (2, "[hand_written=capture+replay(reference counts follow ObjectDestroyed records)] "
            "ULONG AddRef()"),
        (3, "[hand_written=capture+replay(reference counts follow ObjectDestroyed records)] "
            "ULONG Release()"),
    ])
    api.interface("ID3D11DeviceChild", base="IUnknown", header="d3d11",
                  uuid="1841e5c8-16b0-489b-bcc8-44cfb0d5deae", methods=[
        (4, "void GetDevice([out] ID3D11Device **ppDevice)"),
        (5, "HRESULT GetPrivateData(REFGUID guid, [inout] UINT *pDataSize, "
            "[out, opt, bytes=*pDataSize] void *pData)"),
        (6, "HRESULT SetPrivateData(REFGUID guid, UINT DataSize, "
            "[opt, bytes=DataSize] const void *pData)"),
        (7, "HRESULT SetPrivateDataInterface(REFGUID guid, [opt] const IUnknown *pData)"),
    ])
