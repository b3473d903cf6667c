/* A C program, as existing D3D11 code is written: the newest headers, the C
 * call macros, an adapter picked the DXGI 1.6 way, and a texture cleared and
 * read back on the reference device. */
#define COBJMACROS
#include <d3d11_4.h>
#include <dxgi1_6.h>
#include <stdio.h>

#define CHECK(expr)                                              \
    do {                                                         \
        HRESULT hr_ = (expr);                                    \
        if (FAILED(hr_)) {                                       \
            printf("%s failed: 0x%08x\n", #expr, (unsigned)hr_); \
            return 1;                                            \
        }                                                        \
    } while (0)

int main(void) {
    IDXGIFactory6* factory = NULL;
    CHECK(CreateDXGIFactory2(0, &IID_IDXGIFactory6, (void**)&factory));
    IDXGIAdapter1* adapter = NULL;
    CHECK(IDXGIFactory6_EnumAdapterByGpuPreference(factory, 0, DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE,
                                                   &IID_IDXGIAdapter1, (void**)&adapter));
    DXGI_ADAPTER_DESC1 adapter_desc;
    CHECK(IDXGIAdapter1_GetDesc1(adapter, &adapter_desc));
    IDXGIAdapter* warp = NULL;
    CHECK(IDXGIFactory4_EnumWarpAdapter((IDXGIFactory4*)factory, &IID_IDXGIAdapter, (void**)&warp));

    ID3D11Device* device = NULL;
    ID3D11DeviceContext* context = NULL;
    D3D_FEATURE_LEVEL level = 0;
    CHECK(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_REFERENCE, NULL, 0, NULL, 0, D3D11_SDK_VERSION,
                            &device, &level, &context));
    ID3D11Device5* device5 = NULL;
    const HRESULT no_device5 =
        ID3D11Device_QueryInterface(device, &IID_ID3D11Device5, (void**)&device5);

    D3D11_TEXTURE2D_DESC desc = {4,
                                 4,
                                 1,
                                 1,
                                 DXGI_FORMAT_R8G8B8A8_UNORM,
                                 {1, 0},
                                 D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_RENDER_TARGET,
                                 0,
                                 0};
    ID3D11Texture2D* target = NULL;
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &target));
    ID3D11RenderTargetView* view = NULL;
    CHECK(ID3D11Device_CreateRenderTargetView(device, (ID3D11Resource*)target, NULL, &view));
    const FLOAT colour[4] = {1.0f, 0.5f, 0.0f, 1.0f};
    ID3D11DeviceContext_ClearRenderTargetView(context, view, colour);
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ID3D11Texture2D* staging = NULL;
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &staging));
    ID3D11DeviceContext_CopyResource(context, (ID3D11Resource*)staging, (ID3D11Resource*)target);
    D3D11_MAPPED_SUBRESOURCE mapped;
    CHECK(
        ID3D11DeviceContext_Map(context, (ID3D11Resource*)staging, 0, D3D11_MAP_READ, 0, &mapped));
    const unsigned char* texel = (const unsigned char*)mapped.pData;
    printf("feature level 0x%x, adapter flags 0x%x, ID3D11Device5 0x%08x, texel %u %u %u %u\n",
           (unsigned)level, (unsigned)adapter_desc.Flags, (unsigned)no_device5, texel[0], texel[1],
           texel[2], texel[3]);
    ID3D11DeviceContext_Unmap(context, (ID3D11Resource*)staging, 0);

    ID3D11Texture2D_Release(staging);
    ID3D11RenderTargetView_Release(view);
    ID3D11Texture2D_Release(target);
    ID3D11DeviceContext_Release(context);
    ID3D11Device_Release(device);
    IDXGIAdapter_Release(warp);
    IDXGIAdapter1_Release(adapter);
    IDXGIFactory6_Release(factory);
    return 0;
}
