"""The COM objects the capture layer wraps, and the interfaces each exposes.

Each entry is one kind of underlying object.  Its interfaces are listed
most-derived first; each implies its bases (ID3D11Texture2D implies
ID3D11Resource, ID3D11DeviceChild and IUnknown).  QueryInterface on a wrapper
answers for exactly these interfaces (those the wrapped object supports); an
interface not listed here is refused, because handing out the underlying
object would let calls bypass the capture.
"""

# (kind, interfaces, is a device context)
WRAPPED_OBJECTS = (
    ("Device", ("ID3D11Device2", "IDXGIDevice2"), False),
    ("DeviceContext", ("ID3D11DeviceContext2", "ID3DUserDefinedAnnotation"), True),
    ("Buffer", ("ID3D11Buffer", "IDXGIResource1"), False),
    ("Texture1D", ("ID3D11Texture1D", "IDXGIResource1"), False),
    ("Texture2D", ("ID3D11Texture2D", "IDXGIResource1", "IDXGISurface2"), False),
    ("Texture3D", ("ID3D11Texture3D", "IDXGIResource1"), False),
    ("ShaderResourceView", ("ID3D11ShaderResourceView",), False),
    ("RenderTargetView", ("ID3D11RenderTargetView",), False),
    ("DepthStencilView", ("ID3D11DepthStencilView",), False),
    ("UnorderedAccessView", ("ID3D11UnorderedAccessView",), False),
    ("BlendState", ("ID3D11BlendState1",), False),
    ("DepthStencilState", ("ID3D11DepthStencilState",), False),
    ("RasterizerState", ("ID3D11RasterizerState1",), False),
    ("SamplerState", ("ID3D11SamplerState",), False),
    ("VertexShader", ("ID3D11VertexShader",), False),
    ("HullShader", ("ID3D11HullShader",), False),
    ("DomainShader", ("ID3D11DomainShader",), False),
    ("GeometryShader", ("ID3D11GeometryShader",), False),
    ("PixelShader", ("ID3D11PixelShader",), False),
    ("ComputeShader", ("ID3D11ComputeShader",), False),
    ("InputLayout", ("ID3D11InputLayout",), False),
    ("ClassLinkage", ("ID3D11ClassLinkage",), False),
    ("ClassInstance", ("ID3D11ClassInstance",), False),
    ("Predicate", ("ID3D11Predicate",), False),
    ("Query", ("ID3D11Query",), False),
    ("Counter", ("ID3D11Counter",), False),
    ("CommandList", ("ID3D11CommandList",), False),
    ("DeviceContextState", ("ID3DDeviceContextState",), False),
    ("Factory", ("IDXGIFactory6",), False),
    ("Adapter", ("IDXGIAdapter2",), False),
    ("Output", ("IDXGIOutput1",), False),
    ("SwapChain", ("IDXGISwapChain1",), False),
)
