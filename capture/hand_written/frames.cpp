// Present ends a frame, hashed before the picture goes; annotations report
// whether the layer is recording.
#include <d3dcap/capture/wrappers.h>

#include "capture/layer/recorder.h"

namespace d3dcap::capture::hand_written {

HRESULT IDXGISwapChain_Present(FacetHeader& self, IDXGISwapChain* real, UINT SyncInterval,
                               UINT Flags) {
    HRESULT result;
    if ((Flags & DXGI_PRESENT_TEST) == 0) Layer::get().frame_presenting();
    {
        CallRecorder call(&self, api::CallId::IDXGISwapChain_Present);
        result = real->Present(SyncInterval, Flags);
        if (call.wanted())
            call.finish(
                api::encode_IDXGISwapChain_Present(call.builder(), call.ids(), SyncInterval, Flags),
                result_value(result), true);
    }
    // DXGI_PRESENT_TEST shows nothing: it does not end a frame.
    if ((Flags & DXGI_PRESENT_TEST) == 0) Layer::get().frame_ended();
    return result;
}

HRESULT IDXGISwapChain1_Present1(FacetHeader& self, IDXGISwapChain1* real, UINT SyncInterval,
                                 UINT PresentFlags,
                                 const DXGI_PRESENT_PARAMETERS* pPresentParameters) {
    HRESULT result;
    if ((PresentFlags & DXGI_PRESENT_TEST) == 0) Layer::get().frame_presenting();
    {
        CallRecorder call(&self, api::CallId::IDXGISwapChain1_Present1);
        result = real->Present1(SyncInterval, PresentFlags, pPresentParameters);
        if (call.wanted())
            call.finish(
                api::encode_IDXGISwapChain1_Present1(call.builder(), call.ids(), SyncInterval,
                                                     PresentFlags, pPresentParameters),
                result_value(result), true);
    }
    if ((PresentFlags & DXGI_PRESENT_TEST) == 0) Layer::get().frame_ended();
    return result;
}

// TRUE exactly while the layer records, whatever the device below says: an
// application uses it to decide whether its markers are worth making.
BOOL ID3D11DeviceContext2_IsAnnotationEnabled(FacetHeader& self, ID3D11DeviceContext2* real) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext2_IsAnnotationEnabled);
    real->IsAnnotationEnabled();
    const BOOL enabled = call.recording() ? TRUE : FALSE;
    if (call.wanted())
        call.finish(
            api::encode_ID3D11DeviceContext2_IsAnnotationEnabled(call.builder(), call.ids()),
            enabled);
    return enabled;
}

BOOL ID3DUserDefinedAnnotation_GetStatus(FacetHeader& self, ID3DUserDefinedAnnotation* real) {
    CallRecorder call(&self, api::CallId::ID3DUserDefinedAnnotation_GetStatus);
    real->GetStatus();
    const BOOL enabled = call.recording() ? TRUE : FALSE;
    if (call.wanted())
        call.finish(api::encode_ID3DUserDefinedAnnotation_GetStatus(call.builder(), call.ids()),
                    enabled);
    return enabled;
}

// The security descriptor is the process's own business: not recorded.
HRESULT IDXGIResource1_CreateSharedHandle(FacetHeader& self, IDXGIResource1* real,
                                          const SECURITY_ATTRIBUTES* pAttributes, DWORD dwAccess,
                                          LPCWSTR lpName, HANDLE* pHandle) {
    CallRecorder call(&self, api::CallId::IDXGIResource1_CreateSharedHandle);
    const HRESULT result = real->CreateSharedHandle(pAttributes, dwAccess, lpName, pHandle);
    if (call.wanted())
        call.finish(api::encode_IDXGIResource1_CreateSharedHandle(
                        call.builder(), call.ids(), nullptr, dwAccess, lpName,
                        SUCCEEDED(result) ? pHandle : nullptr, 0),
                    result_value(result), true);
    return result;
}

}  // namespace d3dcap::capture::hand_written
